package import RooftopCore
import RooftopStorage

/// Parse Config (`GET`/`PUT /config`): values an app reads at launch, some visible to the
/// master key only.
///
/// Stored as Parse stores it: one `_GlobalConfig` object, id `1`, with `params` and
/// `masterKeyOnly`. A change is one update of dotted keys (`params.<key>`), so two operators
/// changing different keys at once both keep their change. Reads are cached in memory while the
/// cache bus is live, and every node drops its copy when any node changes the values.
package struct GlobalConfig: Sendable {
    /// The values and which of them the master key alone may read.
    package struct Values: Sendable, Equatable {
        /// Every value, by key.
        package var params: [String: JSON]
        /// Keys readable with the master key only.
        package var masterKeyOnly: Set<String>
    }

    let objects: Objects
    private let cache = BusCache<Values>()

    static let className = ClassName.globalConfig
    static let objectId = "1"

    /// Creates the use case.
    package init(objects: Objects) { self.objects = objects }

    /// What `GET /config` answers: `params` without master-only keys unless `isMaster`, and for
    /// the master key `masterKeyOnly` too.
    package func answer(isMaster: Bool) async throws -> JSON {
        let values = try await read()
        guard isMaster else { return ["params": .object(values.params.filter { !values.masterKeyOnly.contains($0.key) })] }
        return [
            "params": .object(values.params),
            "masterKeyOnly": .object(Dictionary(uniqueKeysWithValues: values.masterKeyOnly.map { ($0, JSON.bool(true)) })),
        ]
    }

    /// The current values (cached while the cache bus is live).
    package func read() async throws -> Values {
        try await cache.value(live: objects.store.cacheBus.isLive, load: load)
    }

    /// Applies `PUT /config`'s body: `params` (a value, or `{"__op":"Delete"}` to remove the
    /// key) and `masterKeyOnly` (`true` or `false` per key). Keys are identifiers (105 otherwise).
    package func update(body: [String: JSON]) async throws {
        let changes = try Self.changes(body)
        guard !changes.isEmpty else { return }
        try await ensureExists()
        let write = try ObjectWrite(body: changes, isCreate: false)
        _ = try await objects.commit([
            .update(
                className: Self.className, objectId: Self.objectId, at: objects.clock.now(), write: write, access: .master,
                grant: SchemaGrant(createClass: true, addFields: true))
        ])
        invalidate()
        await objects.store.cacheBus.publish(.config)
    }

    /// Drops the cached values (another node changed them, or events were missed).
    package func invalidate() { cache.invalidate() }

    /// The dotted-key update a `PUT /config` body stands for.
    static func changes(_ body: [String: JSON]) throws(ParseError) -> [String: JSON] {
        for key in body.keys where key != "params" && key != "masterKeyOnly" {
            throw ParseError(.invalidJSON, "Unknown key in the config: \(ClassName.printable(key)). Send params and masterKeyOnly.")
        }
        var changes: [String: JSON] = [:]
        if let params = body["params"] {
            guard let params = params.objectValue else { throw ParseError(.invalidJSON, "params must be an object.") }
            for (key, value) in params {
                try checkKey(key)
                let deletes = value["__op"]?.stringValue == "Delete"
                changes["params." + key] = value
                // A deleted value takes its visibility with it.
                if deletes { changes["masterKeyOnly." + key] = ["__op": "Delete"] }
            }
        }
        if let flags = body["masterKeyOnly"] {
            guard let flags = flags.objectValue else { throw ParseError(.invalidJSON, "masterKeyOnly must be an object.") }
            for (key, flag) in flags {
                try checkKey(key)
                guard let flag = flag.boolValue else { throw ParseError(.invalidJSON, "masterKeyOnly.\(key) must be true or false.") }
                if changes["masterKeyOnly." + key] == nil { changes["masterKeyOnly." + key] = flag ? true : ["__op": "Delete"] }
            }
        }
        return changes
    }

    static func checkKey(_ key: String) throws(ParseError) {
        guard FieldName.isIdentifier(key) else {
            throw ParseError(.invalidKeyName, "Invalid config key: \(ClassName.printable(key)). Keys are letters, digits and _.")
        }
    }

    private func load() async throws -> Values {
        let stored: JSON
        do {
            stored = try await objects.get(Self.className, objectId: Self.objectId, params: [:], principal: .master)
        } catch let error as ParseError where error.code == .objectNotFound {
            return Values(params: [:], masterKeyOnly: [])
        }
        let flags = stored["masterKeyOnly"]?.objectValue ?? [:]
        return Values(params: stored["params"]?.objectValue ?? [:], masterKeyOnly: Set(flags.filter { $0.value == true }.keys))
    }

    /// Creates the one config object when it is missing; another node creating it first is fine.
    private func ensureExists() async throws {
        if (try? await objects.get(Self.className, objectId: Self.objectId, params: ["keys": "objectId"], principal: .master)) != nil { return }
        let write = try ObjectWrite(body: ["params": [:], "masterKeyOnly": [:]], isCreate: true)
        do {
            _ = try await objects.commit([
                .insert(
                    className: Self.className, objectId: Self.objectId, at: objects.clock.now(), write: write,
                    grant: SchemaGrant(createClass: true, addFields: true))
            ])
        } catch let error as ParseError where error.code == .duplicateValue {
            // Created meanwhile by another request.
        }
    }
}
