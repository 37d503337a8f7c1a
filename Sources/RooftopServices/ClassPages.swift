package import RooftopCore
package import RooftopStorage

extension DataStore {
    /// Every object of `className`, as the master key sees it, `size` at a time in objectId
    /// order: keyset paging, so each page is an index range however large the class (export,
    /// the unreferenced-files scan).
    package func forEachPage(
        of className: ClassName, size: Int, _ body: ([StoredObject]) async throws -> Void
    ) async throws {
        let scope = AccessScope(classes: [className: .master])
        var after: String?
        while true {
            var options = FindOptions()
            options.limit = size
            options.order = [SortKey(path: FieldPath(field: .objectId), descending: false)]
            let query: QueryNode = after.map { .field(FieldPath(field: .objectId), .compare(.gt, .string($0))) } ?? .always
            let objects = try await find(FindRequest(className: className, query: query, options: options, scope: scope))
            try await body(objects)
            guard objects.count == size, let last = objects.last else { return }
            after = last.objectId
        }
    }
}
