/// A schema field type; a field's type is fixed by its first write.
public enum FieldType: Hashable, Sendable {
    case string, number, boolean, date, object, array, geoPoint, file, bytes, polygon, acl
    /// A pointer to objects of one class.
    case pointer(ClassName)
    /// A relation to objects of one class.
    case relation(ClassName)

    /// Parse's name of the type, as in `/schemas`.
    public var name: String {
        switch self {
        case .string: "String"
        case .number: "Number"
        case .boolean: "Boolean"
        case .date: "Date"
        case .object: "Object"
        case .array: "Array"
        case .geoPoint: "GeoPoint"
        case .file: "File"
        case .bytes: "Bytes"
        case .polygon: "Polygon"
        case .acl: "ACL"
        case .pointer: "Pointer"
        case .relation: "Relation"
        }
    }

    /// The target class of a pointer or relation.
    public var targetClass: ClassName? {
        switch self {
        case .pointer(let c), .relation(let c): c
        default: nil
        }
    }

    /// The `/schemas` JSON form: `{"type":"Pointer","targetClass":"_User"}`.
    public var json: JSON {
        var members: [String: JSON] = ["type": .string(name)]
        if let target = targetClass { members["targetClass"] = .string(target.rawValue) }
        return .object(members)
    }

    /// Parses the `/schemas` JSON form.
    public init(json: JSON) throws(ParseError) {
        guard let type = json["type"]?.stringValue else {
            throw ParseError(.incorrectType, "invalid field type: \(json.kindName)")
        }
        switch type {
        case "String": self = .string
        case "Number": self = .number
        case "Boolean": self = .boolean
        case "Date": self = .date
        case "Object": self = .object
        case "Array": self = .array
        case "GeoPoint": self = .geoPoint
        case "File": self = .file
        case "Bytes": self = .bytes
        case "Polygon": self = .polygon
        case "ACL": self = .acl
        case "Pointer", "Relation":
            guard let target = json["targetClass"]?.stringValue else {
                throw ParseError(.missingObjectId, "type \(type) needs a class name")
            }
            let cls = try ClassName(target)
            self = type == "Pointer" ? .pointer(cls) : .relation(cls)
        default:
            throw ParseError(.incorrectType, "invalid field type: \(ClassName.printable(type))")
        }
    }

    /// Whether values of this type may be compared with `$lt`/`$gt`.
    public var isOrderable: Bool {
        switch self {
        case .string, .number, .date, .boolean: true
        default: false
        }
    }
}
