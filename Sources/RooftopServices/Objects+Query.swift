package import RooftopCore
import RooftopStorage

extension Objects {
    /// A query's answer: the objects and, when asked, the total count.
    package struct FindResult: Sendable {
        /// The objects, in wire form.
        package var results: [JSON]
        /// The count, when `count` was asked for.
        package var count: Int?
    }

    /// Runs a query (`GET /classes/:className`).
    package func find(_ className: ClassName, params: [String: JSON], principal: Principal) async throws -> FindResult {
        let params = try await beforeFind(className, objectId: nil, params: params, principal: principal)
        let prepared = try await prepareFind(className, params: params, principal: principal)
        guard let (request, schema) = prepared.query else { return FindResult(results: [], count: prepared.count) }
        let objects = try await store.find(request)
        let rendered = try await render(objects, schema: schema, options: request.options, principal: principal)
        await afterFind(className, objectId: nil, params: params, results: rendered, principal: principal)
        return FindResult(results: rendered, count: prepared.count)
    }

    /// A query checked and compiled for the caller, its count run when asked for; no `query`
    /// when there is nothing to read (no such class yet, or `limit=0`).
    struct PreparedFind {
        var query: (FindRequest, ClassSchema)?
        var count: Int?
    }

    func prepareFind(_ className: ClassName, params: [String: JSON], principal: Principal) async throws -> PreparedFind {
        try checkReadClassAccess(className, principal: principal)
        // Refused rather than ignored: a caller who names an index expects it to be used.
        if params["hint"] != nil { throw ParseError(.invalidQuery, "hint is not supported: the database chooses the index.") }
        for key in params.keys where !Objects.findParameters.contains(key) {
            throw ParseError(.invalidQuery, "Invalid parameter for query: \(ClassName.printable(key))")
        }
        let options = try FindOptions(params: params, defaultLimit: config.defaultLimit, maxLimit: config.maxLimit, limits: config.queryLimits)
        var query = try params["where"].map { value throws(ParseError) in try QueryNode.parse(where: value, limits: config.queryLimits) } ?? .always
        query = try Objects.ownSessionsOnly(className, query, principal: principal)
        guard let schema = try await store.schema(className) else {
            // A class nobody has written to yet: empty, as in Parse.
            return PreparedFind(query: nil, count: options.count ? 0 : nil)
        }
        let operation: ClassLevelPermissions.Operation = options.count && options.limit == 0 ? .count : .find
        let scope = try await readScope(
            className, schema: schema, query: query, operation: operation, principal: principal, order: options.order)
        let request = FindRequest(className: className, query: query, options: options, scope: scope)
        let count = options.count ? try await store.count(request) : nil
        return PreparedFind(query: options.limit == 0 ? nil : (request, schema), count: count)
    }

    /// Gets one object (`GET /classes/:className/:objectId`); 101 if missing or unreadable.
    package func get(_ className: ClassName, objectId: String, params: [String: JSON], principal: Principal) async throws -> JSON {
        var changed = try await beforeFind(className, objectId: objectId, params: params, principal: principal)
        // A before-find trigger's `where` narrows a get too; a client's own is still refused
        // (102), and the query-only keys a trigger sets for finds do not apply to a get.
        var pin: QueryNode?
        if params["where"] == nil, let condition = changed.removeValue(forKey: "where") {
            try checkReadClassAccess(className, principal: principal)
            pin = try QueryNode.parse(where: condition, limits: config.queryLimits)
        }
        let params = changed.filter { params[$0.key] != nil || Objects.getParameters.contains($0.key) }
        let (request, schema) = try await prepareGet(className, objectId: objectId, params: params, principal: principal, pin: pin)
        let object = try await renderedGet(request, schema: schema, principal: principal)
        await afterFind(className, objectId: objectId, params: params, results: [object], principal: principal)
        return object
    }

    /// A prepared get, read and rendered; 101 if nothing came back.
    func renderedGet(_ request: FindRequest, schema: ClassSchema, principal: Principal) async throws -> JSON {
        let objects = try await store.find(request)
        guard let rendered = try await render(objects, schema: schema, options: request.options, principal: principal).first else {
            throw ParseError.objectNotFound
        }
        return rendered
    }

    /// - Parameter pin: a condition the object must also meet, set by a use case with its own
    ///   rules for the class (a client reads only its own installation); the generic refusal of
    ///   internal classes then does not apply.
    func prepareGet(
        _ className: ClassName, objectId: String, params: [String: JSON], principal: Principal, pin: QueryNode? = nil
    ) async throws -> (FindRequest, ClassSchema) {
        if pin == nil { try checkReadClassAccess(className, principal: principal) }
        for key in params.keys where !Objects.getParameters.contains(key) {
            throw ParseError(.invalidQuery, "Improper encode of parameter")
        }
        let options = try FindOptions(params: params, defaultLimit: 1, maxLimit: 1, limits: config.queryLimits)
        guard let schema = try await store.schema(className) else { throw ParseError.objectNotFound }
        var query = try Objects.ownSessionsOnly(className, .field(FieldPath(field: .objectId), .equals(.string(objectId))), principal: principal)
        if let pin { query = .and([query, pin]) }
        let scope = try await readScope(className, schema: schema, query: query, operation: .get, principal: principal)
        return (FindRequest(className: className, query: query, options: options, scope: scope), schema)
    }

    /// A `_Session` query of a user, pinned to that user's sessions: their ACLs already say so,
    /// but a session created with the master key may carry any ACL. Tokens are stored as
    /// digests only, so the listing has no `sessionToken` (docs/security.md).
    static func ownSessionsOnly(_ className: ClassName, _ query: QueryNode, principal: Principal) throws(ParseError) -> QueryNode {
        guard className == .session, !principal.isMaster, let userId = principal.userId else { return query }
        return .and([query, try UserDirectory.sessions(of: userId)])
    }

    static let findParameters: Set<String> = [
        "where", "order", "limit", "skip", "keys", "excludeKeys", "include", "includeAll", "count", "readPreference",
        "includeReadPreference", "subqueryReadPreference", "comment",
    ]
    static let getParameters: Set<String> = ["keys", "include", "excludeKeys", "readPreference", "includeReadPreference", "subqueryReadPreference"]

    /// The caller's read access to `className` and to every class its query reaches.
    ///
    /// Protected fields may not be tested anywhere: in the main query, in the `order`, in a
    /// subquery's `where`, or as a `$select` key, since each would let a caller guess values.
    func readScope(
        _ className: ClassName, schema: ClassSchema, query: QueryNode, operation: ClassLevelPermissions.Operation, principal: Principal,
        order: [SortKey] = []
    ) async throws -> AccessScope {
        var classes: [ClassName: Access] = [:]
        var used = Objects.fieldsUsed(query)
        used.formUnion(order.map(\.path.field.rawValue))
        classes[className] = try readAccess(
            schema, operation: operation, principal: principal, fieldsUsed: used, selfQuery: Objects.selfQuery(query, principal))
        for (sub, fields) in Objects.subqueryFields(query) {
            try checkReadClassAccess(sub, principal: principal)
            // A subquery would read the class around its before-find trigger (Parse's
            // GHSA-fcv6-fg5r-jm9q was such a way around): refused rather than run unchecked.
            if triggers.inCode(.beforeFind, sub) {
                throw ParseError(.invalidQuery, "\(sub) has a beforeFind trigger: a subquery on it is not supported.")
            }
            guard let subSchema = try await store.schema(sub) else { continue }
            let access = try readAccess(subSchema, operation: .find, principal: principal, fieldsUsed: fields, selfQuery: false)
            if classes[sub] == nil { classes[sub] = access }
        }
        return AccessScope(classes: classes)
    }

    /// One class's read access: CLP decision, ACL group and protected fields.
    func readAccess(
        _ schema: ClassSchema, operation: ClassLevelPermissions.Operation, principal: Principal, fieldsUsed: Set<String>, selfQuery: Bool
    ) throws(ParseError) -> Access {
        if principal.isMaster { return .master }
        let decision = try AccessPolicy.check(operation, on: schema.className, clp: schema.clp, principal: principal)
        var clp = schema.clp
        if let extra = config.protectedFields[schema.className.rawValue] {
            clp.protectedFields.merge(extra) { own, server in Array(Set(own).union(server)) }
        }
        let (hidden, byUserField) = AccessPolicy.protectedFields(clp, principal: principal)
        // Querying on a field you cannot see would let you guess its value (Parse GHSA-2m6g);
        // only a user asking about their own `_User` object is exempt.
        if !(schema.className == .user && selfQuery) {
            for field in fieldsUsed.sorted() where hidden.contains(field) {
                throw ParseError(.operationForbidden, "This user is not allowed to query \(field) on class \(schema.className)")
            }
        }
        var access = Access(aclGroup: principal.aclGroup, userId: principal.userId, hiddenFields: hidden, hiddenUnlessUserField: byUserField)
        if case .restricted(let fields) = decision { access.pointerRestriction = fields }
        return access
    }

    /// Whether the query is pinned to the caller's own object (`objectId == me`).
    static func selfQuery(_ node: QueryNode, _ principal: Principal) -> Bool {
        guard let userId = principal.userId else { return false }
        switch node {
        case .field(let path, .equals(.string(let id))): return path.field == .objectId && path.subkeys.isEmpty && id == userId
        case .and(let children): return children.contains { selfQuery($0, principal) }
        default: return false
        }
    }

    /// Each class a subquery or `$relatedTo` reaches, with the fields tested in it
    /// (its `where` fields and the `$select` key).
    static func subqueryFields(_ node: QueryNode) -> [(ClassName, Set<String>)] {
        switch node {
        case .and(let children), .or(let children), .nor(let children): return children.flatMap(subqueryFields)
        case .relatedTo(let owner, _): return [(owner.className, [])]
        case .never: return []
        case .field(_, let condition):
            switch condition {
            case .inQuery(let sub), .notInQuery(let sub):
                return [(sub.className, fieldsUsed(sub.query))] + subqueryFields(sub.query)
            case .select(let sub, let key), .dontSelect(let sub, let key):
                return [(sub.className, fieldsUsed(sub.query).union([key.field.rawValue]))] + subqueryFields(sub.query)
            default: return []
            }
        }
    }

    /// Top-level fields a query tests, subqueries excluded.
    static func fieldsUsed(_ node: QueryNode) -> Set<String> {
        switch node {
        case .and(let children), .or(let children), .nor(let children): return children.reduce(into: []) { $0.formUnion(fieldsUsed($1)) }
        case .field(let path, _): return [path.field.rawValue]
        case .relatedTo, .never: return []
        }
    }
}
