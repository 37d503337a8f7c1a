/// One class's schema: field types, class-level permissions and indexes.
public struct ClassSchema: Sendable, Equatable {
    /// The class.
    public let className: ClassName
    /// Field types, including the default fields.
    public var fields: [String: FieldType]
    /// Class-level permissions.
    public var clp: ClassLevelPermissions
    /// Indexes requested through `/schemas`: name → field → 1 / -1.
    public var indexes: [String: [String: Int]]
    /// `required` and `defaultValue` of the fields that have them.
    public var fieldOptions: [String: FieldOptions] = [:]

    /// Creates a schema; default fields of the class are always present.
    public init(
        className: ClassName, fields: [String: FieldType] = [:], clp: ClassLevelPermissions = .open,
        indexes: [String: [String: Int]] = [:]
    ) {
        self.className = className
        self.fields = ClassSchema.defaultFields(for: className).merging(fields) { builtIn, _ in builtIn }
        self.clp = clp
        self.indexes = indexes
    }

    /// The fields every object of `className` has.
    public static func defaultFields(for className: ClassName) -> [String: FieldType] {
        var fields: [String: FieldType] = ["objectId": .string, "createdAt": .date, "updatedAt": .date, "ACL": .acl]
        switch className.rawValue {
        case "_User":
            fields.merge(["username": .string, "password": .string, "email": .string, "emailVerified": .boolean, "authData": .object]) { a, _ in a }
        case "_Role":
            fields.merge(["name": .string, "users": .relation(.user), "roles": .relation(.role)]) { a, _ in a }
        case "_Session":
            fields.merge(
                ["user": .pointer(.user), "installationId": .string, "sessionToken": .string, "expiresAt": .date, "createdWith": .object]
            ) { a, _ in a }
        case "_Installation":
            fields.merge(
                [
                    "installationId": .string, "deviceToken": .string, "channels": .array, "deviceType": .string, "pushType": .string,
                    "GCMSenderId": .string, "timeZone": .string, "localeIdentifier": .string, "badge": .number, "appVersion": .string,
                    "appName": .string, "appIdentifier": .string, "parseVersion": .string,
                ]
            ) { a, _ in a }
        default: break
        }
        return fields
    }

    /// Whether `name` is one of the class's default fields.
    public func isDefaultField(_ name: String) -> Bool { ClassSchema.defaultFields(for: className)[name] != nil }

    /// Fields whose values must be unique in the class (role names, user names and emails, session
    /// tokens, installation ids).
    public var uniqueFields: [String] {
        switch className {
        case .role: ["name"]
        case .user:
            [
                InternalField.usernameKey.rawValue, InternalField.emailKey.rawValue, InternalField.emailVerifyToken.rawValue,
                InternalField.resetToken.rawValue,
            ]
                + fields.keys.filter { $0.hasPrefix(FieldName.authIdPrefix) }.sorted()
        case .session: [InternalField.sessionToken.rawValue]
        // One installation per device: concurrent first saves of a device can't both create one.
        case .installation: ["installationId"]
        default: []
        }
    }

    /// Pointer fields to `_User` (indexed automatically).
    public var userPointerFields: [String] {
        fields.compactMap { name, type in type == .pointer(.user) ? name : nil }.sorted()
    }

    /// The `/schemas` JSON form.
    public var json: JSON {
        var members: [String: JSON] = [:]
        for (name, type) in fields where name != "password" && !name.hasPrefix("_") { members[name] = fieldJSON(name, type) }
        var indexJSON: [String: JSON] = ["_id_": ["_id": 1]]
        for (name, keys) in indexes { indexJSON[name] = .object(keys.mapValues { .number(Double($0)) }) }
        return [
            "className": .string(className.rawValue), "fields": .object(members), "classLevelPermissions": clp.json,
            "indexes": .object(indexJSON),
        ]
    }

    /// A field's `/schemas` JSON: its type and, when set, its options.
    public func fieldJSON(_ name: String, _ type: FieldType) -> JSON {
        guard let options = fieldOptions[name], !options.isEmpty, case .object(var members) = type.json else { return type.json }
        members.merge(options.members) { typeMember, _ in typeMember }
        return .object(members)
    }

    /// 255 when the class has more than `max` fields (its default fields included): one request
    /// could otherwise add thousands of columns, which every later read of the class pays for.
    public func checkFieldCount(max: Int) throws(ParseError) {
        guard fields.count > max else { return }
        throw ParseError(
            .invalidSchemaOperation, "Class \(className) would have \(fields.count) fields; at most \(max) are allowed (maxFieldsPerClass).")
    }

    /// Adds `proposed` field types, failing with 111 on a mismatch with a recorded type.
    ///
    /// - Returns: the names of fields that were new.
    public mutating func merge(_ proposed: [String: FieldType]) throws(ParseError) -> [String] {
        var added: [String] = []
        for (name, type) in proposed.sorted(by: { $0.key < $1.key }) {
            if let existing = fields[name] {
                guard existing == type else {
                    throw ParseError(
                        .incorrectType, "schema mismatch for \(className).\(name); expected \(existing.name) but got \(type.name)")
                }
                continue
            }
            if type == .geoPoint, let other = fields.first(where: { $0.value == .geoPoint }) {
                throw ParseError(.incorrectType, "there can only be one geopoint field in a class (\(other.key))")
            }
            fields[name] = type
            added.append(name)
        }
        return added
    }
}
