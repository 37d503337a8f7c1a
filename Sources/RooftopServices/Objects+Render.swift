import RooftopCore
import RooftopStorage

extension Objects {
    /// Wire form of stored objects: relation placeholders, `include`, then `keys`/`excludeKeys`.
    func render(_ objects: [StoredObject], schema: ClassSchema, options: FindOptions, principal: Principal) async throws -> [JSON] {
        var documents = objects.map { object -> [String: JSON] in
            var json = schema.className == .user ? AuthProviders.redacted(object.json) : object.json
            for (name, type) in schema.fields {
                if case .relation(let target) = type { json[name] = ["__type": "Relation", "className": .string(target.rawValue)] }
            }
            return json
        }
        var paths = options.include
        if options.includeAll {
            paths += schema.fields.compactMap { name, type in if case .pointer = type { [name] } else { nil } }
        }
        let tree = IncludeTree(paths: paths)
        if !tree.children.isEmpty {
            documents = try await expand(
                documents, tree: tree, projection: Projection(keys: options.keys, excludeKeys: options.excludeKeys), principal: principal,
                depth: 0)
        }
        return documents.map { document in .object(Objects.project(document, keys: options.keys, excludeKeys: options.excludeKeys)) }
    }

    /// `keys` and `excludeKeys` as they reach an included object: `keys=owner.name` with
    /// `include=owner` trims the owner to `name`, as Parse does; a bare `owner` keeps it whole.
    struct Projection {
        var keys: [String]?
        var excludeKeys: [String]

        /// The projection of the objects included through `field`.
        func below(_ field: String) -> Projection {
            func rest(_ paths: [String]) -> [String] {
                paths.compactMap { path in
                    let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
                    return parts.count == 2 && parts[0] == field ? parts[1] : nil
                }
            }
            let nested = keys.map(rest) ?? []
            return Projection(keys: nested.isEmpty ? nil : nested, excludeKeys: rest(excludeKeys))
        }
    }

    /// Include paths as a tree: `a.b` and `a.c` share `a`.
    struct IncludeTree {
        var children: [String: IncludeTree] = [:]

        init(paths: [[String]]) {
            for path in paths { insert(path[...]) }
        }

        private init() {}

        private mutating func insert(_ path: ArraySlice<String>) {
            guard let first = path.first else { return }
            var child = children[first] ?? IncludeTree()
            child.insert(path.dropFirst())
            children[first] = child
        }
    }

    /// Replaces pointers named by `tree` with the objects, read with the caller's own access:
    /// an object the caller may not read stays a pointer.
    private func expand(
        _ documents: [[String: JSON]], tree: IncludeTree, projection: Projection, principal: Principal, depth: Int
    ) async throws -> [[String: JSON]] {
        guard depth < 8 else { return documents }
        var documents = documents
        for (field, subtree) in tree.children.sorted(by: { $0.key < $1.key }) {
            var wanted: [ClassName: Set<String>] = [:]
            for document in documents {
                for ref in Objects.pointers(in: document[field]) { wanted[ref.className, default: []].insert(ref.objectId) }
            }
            var fetched: [ObjectRef: JSON] = [:]
            for (className, ids) in wanted {
                let fetchedObjects = try await fetch(
                    className, ids: ids, subtree: subtree, projection: projection.below(field), principal: principal, depth: depth)
                for (id, object) in fetchedObjects {
                    fetched[ObjectRef(className: className, objectId: id)] = object
                }
            }
            documents = documents.map { document in
                var document = document
                document[field] = document[field].map { Objects.replacePointers($0, with: fetched) }
                return document
            }
        }
        return documents
    }

    private func fetch(
        _ className: ClassName, ids: Set<String>, subtree: IncludeTree, projection: Projection, principal: Principal, depth: Int
    ) async throws -> [(String, JSON)] {
        guard (try? checkReadClassAccess(className, principal: principal)) != nil, let schema = try await store.schema(className),
            let access = try? readAccess(schema, operation: .get, principal: principal, fieldsUsed: [], selfQuery: false)
        else { return [] }
        var options = FindOptions()
        options.limit = ids.count
        var query = QueryNode.field(FieldPath(field: .objectId), .isIn(ids.sorted().map(JSON.string)))
        // An included object is read as a query of its class: its before-find trigger narrows
        // (or refuses) it too, so `include` is no way around the trigger.
        if hasFindTriggers(className) {
            let params = try await beforeFind(
                className, objectId: nil, params: ["where": ["objectId": ["$in": .array(ids.sorted().map(JSON.string))]]], principal: principal)
            if let condition = params["where"] { query = .and([query, try QueryNode.parse(where: condition, limits: config.queryLimits)]) }
        }
        let objects = try await store.find(
            FindRequest(className: className, query: query, options: options, scope: AccessScope(classes: [className: access])))
        var documents = objects.map { className == .user ? AuthProviders.redacted($0.json) : $0.json }
        if !subtree.children.isEmpty {
            documents = try await expand(documents, tree: subtree, projection: projection, principal: principal, depth: depth + 1)
        }
        return documents.map { document in
            var object = Objects.project(document, keys: projection.keys, excludeKeys: projection.excludeKeys)
            object["__type"] = "Object"
            object["className"] = .string(className.rawValue)
            return (document["objectId"]?.stringValue ?? "", .object(object))
        }
    }

    static func pointers(in value: JSON?) -> [ObjectRef] {
        switch value {
        case .object? where value?.parseType == "Pointer": return value.flatMap { try? ObjectRef(pointer: $0) }.map { [$0] } ?? []
        case .array(let items)?: return items.flatMap { pointers(in: $0) }
        default: return []
        }
    }

    static func replacePointers(_ value: JSON, with fetched: [ObjectRef: JSON]) -> JSON {
        switch value {
        case .object where value.parseType == "Pointer":
            guard let ref = try? ObjectRef(pointer: value) else { return value }
            return fetched[ref] ?? value
        case .array(let items): return .array(items.map { replacePointers($0, with: fetched) })
        default: return value
        }
    }

    /// Applies `keys` (with the always-returned fields) and `excludeKeys` to one document.
    static func project(_ document: [String: JSON], keys: [String]?, excludeKeys: [String]) -> [String: JSON] {
        var result = document
        if let keys {
            let top = Set(keys.map { String($0.split(separator: ".").first ?? "") })
            let always: Set<String> = ["objectId", "createdAt", "updatedAt", "ACL", "__type", "className"]
            result = result.filter { top.contains($0.key) || always.contains($0.key) }
        }
        for key in excludeKeys where !key.contains(".") { result[key] = nil }
        return result
    }
}
