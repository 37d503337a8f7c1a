/// A parsed create or update body: field operations by path, plus the ACL if one was sent.
public struct ObjectWrite: Sendable {
    /// Operations on top-level fields or dot paths.
    public var operations: [(path: FieldPath, op: FieldOperation)]
    /// The ACL to store, if the body set one.
    public var acl: ACL?
    /// Whether the body removed the ACL (making the object public again).
    public var clearsACL = false
    /// A client-chosen objectId (only with `allowCustomObjectId`).
    public var objectId: String?

    /// Creates an empty write.
    public init(operations: [(path: FieldPath, op: FieldOperation)] = [], acl: ACL? = nil, objectId: String? = nil) {
        self.operations = operations
        self.acl = acl
        self.objectId = objectId
    }

    /// Parses a request body.
    ///
    /// `createdAt`/`updatedAt` are server-owned and dropped; `objectId`/`id` is kept for the
    /// caller to accept or refuse; internal or malformed names are 105; dot paths only on update.
    public init(body: [String: JSON], isCreate: Bool) throws(ParseError) {
        self.init()
        for (key, value) in body.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "createdAt", "updatedAt": continue
            case "objectId", "id":
                guard case .string(let id) = value else { throw ParseError(.invalidKeyName, "objectId must be a string") }
                objectId = id
                continue
            case "ACL":
                if value.isNull || (!isCreate && value == ["__op": "Delete"]) {
                    clearsACL = true
                } else {
                    acl = try ACL(json: value)
                }
                continue
            default: break
            }
            let path = try FieldPath(parsing: key)
            if !path.subkeys.isEmpty && isCreate {
                throw ParseError(.invalidKeyName, "Invalid field name: \(ClassName.printable(key)).")
            }
            let op = try FieldOperation(parsing: value)
            if !path.subkeys.isEmpty, case .relation = op {
                throw ParseError(.invalidKeyName, "relations cannot be nested: \(ClassName.printable(key)).")
            }
            operations.append((path, op))
        }
    }

    /// Field types implied by the operations on top-level fields.
    public func impliedTypes() throws(ParseError) -> [String: FieldType] {
        var types: [String: FieldType] = [:]
        for (path, op) in operations where path.subkeys.isEmpty {
            if let type = try op.impliedType() { types[path.field.rawValue] = type }
        }
        return types
    }
}
