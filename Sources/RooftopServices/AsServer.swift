import RooftopCore
package import RooftopStorage

/// The server acting for itself, for the use cases' own reads and writes (sessions, lockout
/// counters, tokens): reads with master access that see internal fields, and writes through the
/// API's write path (`Objects.storeWrite`: the role cache cleared on every node, storage errors
/// translated as the API translates them) without the API's access checks or triggers — a use
/// case runs the triggers Parse runs around its own writes itself.
///
/// The one place master scopes are built for internal work: a use case never writes to the
/// store, or builds a master scope, by hand.
package struct AsServer: Sendable {
    /// A use case's own answer to a storage error (an account's 202 for a taken username); nil
    /// leaves it to the API's translation.
    package typealias Translation = @Sendable (StorageError, [WriteOperation]) async throws -> (any Error)?

    let objects: Objects
    let translate: Translation?

    /// The server over `objects`; `translate` answers storage errors before the API's rules do.
    package init(objects: Objects, translate: Translation? = nil) {
        self.objects = objects
        self.translate = translate
    }

    /// The database, for what is not an object: one-time records and the cache bus.
    var store: any DataStore { objects.store }

    /// The server's clock.
    func now() -> ParseDate { objects.clock.now() }

    /// A new objectId of the configured size.
    func newObjectId() -> String { ObjectId.generate(length: objects.config.objectIdSize) }

    /// Objects of `className` matching `query`, internal fields included, in `order`.
    func find(_ className: ClassName, _ query: QueryNode, limit: Int = 100, order: [SortKey] = []) async throws -> [StoredObject] {
        var options = FindOptions()
        options.limit = limit
        options.order = order
        return try await objects.store.find(
            FindRequest(className: className, query: query, options: options, scope: AccessScope(classes: [className: .master])))
    }

    /// The class's schema.
    func schema(_ className: ClassName) async throws -> ClassSchema? { try await objects.store.schema(className) }

    /// Runs `operations` in one transaction (see the type's documentation).
    @discardableResult
    func write(_ operations: [WriteOperation]) async throws -> [WriteOutcome] {
        try await objects.storeWrite(operations, translate: translate)
    }

    /// Runs a group's writes, trims and exchanges in one transaction, as `write(_:)`.
    func write(_ group: WriteGroup) async throws -> WriteGroupOutcome {
        try await objects.storeWrite(group, translate: translate)
    }

    /// Deletes each object of `ids` on its own, going on past failures: the ids deleted.
    func deleteEach(_ className: ClassName, _ ids: [String]) async -> [String] {
        var deleted: [String] = []
        for id in ids where (try? await write([Self.delete(className, id)])) != nil { deleted.append(id) }
        return deleted
    }

    /// A delete with the server's access.
    static func delete(_ className: ClassName, _ objectId: String) -> WriteOperation {
        .delete(className: className, objectId: objectId, access: .master)
    }

    /// An update with the server's access (`requiring` a stored value, for single-use tokens),
    /// adding fields to the schema unless `addFields` is false.
    static func update(
        _ className: ClassName, _ objectId: String, at now: ParseDate, _ write: ObjectWrite, access: Access = .master, addFields: Bool = true
    ) -> WriteOperation {
        .update(
            className: className, objectId: objectId, at: now, write: write, access: access,
            grant: SchemaGrant(createClass: false, addFields: addFields))
    }
}
