package import RooftopCore

extension DataStore {
    /// For stores that cannot estimate: not counted.
    package func estimatedCount(_ className: ClassName, cap: Int) async throws -> ObjectCount {
        throw StorageError.unavailable("this store cannot estimate object counts")
    }
}
