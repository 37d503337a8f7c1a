package import RooftopCore

/// A SQL store that answers schema reads from the catalog it caches.
package protocol CatalogStore: DataStore {
    /// The schemas and tables, current as far as this store knows.
    func catalog() async throws -> QueryCompiler.Catalog
}

extension CatalogStore {
    /// The schema of a class, from the cached catalog.
    package func schema(_ className: ClassName) async throws -> ClassSchema? {
        try await catalog().schemas[className]
    }

    /// Every class's schema, sorted by name.
    package func allSchemas() async throws -> [ClassSchema] {
        try await catalog().schemas.values.sorted { $0.className.rawValue < $1.className.rawValue }
    }
}
