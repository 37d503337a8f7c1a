/// A reference to one object: class and id.
public struct ObjectRef: Hashable, Sendable {
    /// The object's class.
    public let className: ClassName
    /// The object's id.
    public let objectId: String

    /// Creates a reference.
    public init(className: ClassName, objectId: String) {
        self.className = className
        self.objectId = objectId
    }

    /// Reads a `{"__type":"Pointer",…}` value (106 if malformed).
    public init(pointer: JSON) throws(ParseError) {
        guard pointer.parseType == "Pointer", let cls = pointer["className"]?.stringValue, let id = pointer["objectId"]?.stringValue,
            ObjectId.isPlausible(id)
        else { throw ParseError(.invalidPointer, "invalid pointer") }
        self.init(className: try ClassName(cls), objectId: id)
    }

    /// The pointer JSON.
    public var pointerJSON: JSON {
        ["__type": "Pointer", "className": .string(className.rawValue), "objectId": .string(objectId)]
    }
}

/// What a create or update does to one field.
public enum FieldOperation: Sendable, Equatable {
    /// Set the value.
    case set(JSON)
    /// Remove the field.
    case delete
    /// Add a number atomically.
    case increment(Double)
    /// Append to an array.
    case add([JSON])
    /// Append the values not present yet.
    case addUnique([JSON])
    /// Remove every occurrence of the values.
    case remove([JSON])
    /// Change relation membership.
    case relation(add: [ObjectRef], remove: [ObjectRef])

    /// Parses a field value from a request body: a plain value or an `__op` object.
    public init(parsing value: JSON) throws(ParseError) {
        guard case .object(let members) = value, let opValue = members["__op"] else {
            self = .set(value)
            return
        }
        guard let op = opValue.stringValue else { throw ParseError(.invalidJSON, "__op must be a string") }
        switch op {
        case "Delete": self = .delete
        case "Increment":
            guard let amount = members["amount"]?.numberValue else { throw ParseError(.invalidJSON, "incrementing must provide a number") }
            self = .increment(amount)
        case "Add", "AddUnique", "Remove":
            guard let objects = members["objects"]?.arrayValue else { throw ParseError(.invalidJSON, "objects to add must be an array") }
            for object in objects { _ = try SpecialValues.type(of: object) }
            self = op == "Add" ? .add(objects) : op == "AddUnique" ? .addUnique(objects) : .remove(objects)
        case "AddRelation", "RemoveRelation":
            let refs = try FieldOperation.relationTargets(members)
            self = op == "AddRelation" ? .relation(add: refs, remove: []) : .relation(add: [], remove: refs)
        case "Batch":
            guard let ops = members["ops"]?.arrayValue, !ops.isEmpty else { throw ParseError(.invalidJSON, "Batch ops must be an array") }
            var adds: [ObjectRef] = [], removes: [ObjectRef] = []
            for inner in ops {
                guard case .relation(let a, let r) = try FieldOperation(parsing: inner) else {
                    throw ParseError(.invalidJSON, "Batch may only combine relation operations")
                }
                adds += a
                removes += r
            }
            self = .relation(add: adds, remove: removes)
        default:
            throw ParseError(.commandUnavailable, "The \(ClassName.printable(op)) operator is not supported yet.")
        }
    }

    private static func relationTargets(_ members: [String: JSON]) throws(ParseError) -> [ObjectRef] {
        guard let objects = members["objects"]?.arrayValue, !objects.isEmpty else {
            throw ParseError(.invalidJSON, "relation operations need an array of pointers")
        }
        var refs: [ObjectRef] = []
        for object in objects { refs.append(try ObjectRef(pointer: object)) }
        guard Set(refs.map(\.className)).count == 1 else {
            throw ParseError(.incorrectType, "all relation objects must be of the same class")
        }
        return refs
    }

    /// The schema type this operation implies, or nil when it sets none.
    public func impliedType() throws(ParseError) -> FieldType? {
        switch self {
        case .set(let value): try SpecialValues.type(of: value)
        case .delete: nil
        case .increment: .number
        case .add, .addUnique, .remove: .array
        case .relation(let add, let remove): (add.first ?? remove.first).map { .relation($0.className) }
        }
    }
}
