import Foundation
import HTTPTypes
import Hummingbird
import RooftopCore
import RooftopServices
import RooftopStorage

/// A user's page, continued: the objects they own and the edit form of their fields.
extension ConsoleResponder {
    /// How many custom fields the edit form offers (a form carries at most 50 pairs).
    static let editableFieldLimit = 40
    /// Objects listed per owning field, and the count shown before "50+".
    static let ownedShown = 10
    static let ownedCounted = 50

    /// The user page's values for the owned objects and the edit form.
    func userPageExtras(_ visit: ConsoleVisit, user: StoredObject) async throws -> [String: Any] {
        var values: [String: Any] = [:]
        let schemas = try await data.schemas.all()
        let userSchema = schemas.first { $0.className == .user }
        values["editFields"] = Self.editableFields(userSchema).map { name, type -> [String: Any] in
            let current = user.fields[name]
            var field: [String: Any] = ["name": name, "type": type.name, "inputId": "edit-" + name]
            switch type {
            case .boolean:
                field["isBoolean"] = true
                field["checked"] = current?.boolValue == true
            case .number:
                field["isNumber"] = true
                field["value"] = current?.numberValue.map { JSONWriter.string(.number($0)) } ?? ""
            default:
                field["isText"] = true
                field["value"] = current?.stringValue ?? ""
            }
            return field
        }
        values["emailVerifiedChecked"] = user.fields["emailVerified"]?.boolValue == true
        let owned = try await ownedObjects(of: user.objectId, schemas: schemas)
        values["owned"] = owned
        values["hasOwned"] = !owned.isEmpty
        values["viewClasses"] = Self.viewableClasses(schemas).map { ["name": $0] }
        return values
    }

    /// The user's custom fields the form edits: String, Number and Boolean, never an internal
    /// or default field (passwords, `authData`, tokens stay out of reach).
    static func editableFields(_ schema: ClassSchema?) -> [(String, FieldType)] {
        guard let schema else { return [] }
        return schema.fields.filter { name, type in
            !schema.isDefaultField(name) && !name.hasPrefix("_") && [.string, .number, .boolean].contains(type)
        }.sorted { $0.key < $1.key }.prefix(editableFieldLimit).map { ($0.key, $0.value) }
    }

    /// For each class with a `Pointer<_User>` field, the newest objects pointing at the user:
    /// the pointer's index answers each find; at most `ownedCounted + 1` ids are read.
    func ownedObjects(of userId: String, schemas: [ClassSchema]) async throws -> [[String: Any]] {
        var groups: [[String: Any]] = []
        for schema in schemas.sorted(by: { $0.className.rawValue < $1.className.rawValue }) where schema.className != .session {
            for field in schema.userPointerFields {
                let condition: JSON = [field: ["__type": "Pointer", "className": "_User", "objectId": .string(userId)]]
                let params: [String: JSON] = [
                    "where": condition, "order": "-createdAt", "limit": .number(Double(Self.ownedCounted + 1)), "keys": "objectId",
                ]
                let found = try await data.objects.find(schema.className, params: params, principal: .master).results
                guard !found.isEmpty else { continue }
                let name = schema.className.rawValue
                let count = found.count > Self.ownedCounted ? "\(Self.ownedCounted)+" : "\(found.count)"
                groups.append([
                    "className": name, "field": field, "count": count,
                    "classHref": "\(name)?where=" + Self.queryValue(JSONWriter.string(condition, sortedKeys: true)),
                    "objects": found.prefix(Self.ownedShown).map { object -> [String: Any] in
                        [
                            "objectId": object["objectId"]?.stringValue ?? "",
                            "created": object["createdAt"]?.stringValue.flatMap(ParseDate.init(iso:)).map(Self.time) ?? "",
                        ]
                    },
                ])
            }
        }
        return groups
    }

    /// A query-string value, percent-encoded (JSON's braces, quotes and colons included).
    static func queryValue(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// `POST /users/<id>/edit`: the changed fields, through the same use case as
    /// `PUT /users/:id` with the master key; a refusal shows the API's message and changes
    /// nothing.
    func editUser(_ visit: inout ConsoleVisit, id: String) async throws -> Response {
        guard let user = try await accounts.consoleUser(id) else { return visit.message(.notFound, "noUser", status: .notFound) }
        let form = visit.form
        var body: [String: JSON] = [:]
        for name in ["username", "email"] {
            guard let text = form[name] else { continue }
            if text != (user.fields[name]?.stringValue ?? "") { body[name] = .string(text) }
        }
        let verified = form["emailVerified"] == "on"
        if verified != (user.fields["emailVerified"]?.boolValue == true) { body["emailVerified"] = .bool(verified) }
        let schema = try await data.schemas.all().first { $0.className == .user }
        for (name, type) in Self.editableFields(schema) {
            let current = user.fields[name]
            let text = form["field." + name] ?? ""
            switch type {
            case .boolean:
                if (text == "on") != (current?.boolValue == true) { body[name] = .bool(text == "on") }
            case .number:
                if text.isEmpty {
                    if current != nil { body[name] = ["__op": "Delete"] }
                } else if let number = Double(text), number.isFinite {
                    if current?.numberValue != number { body[name] = .number(number) }
                } else {
                    return try await userPage(&visit, id: id, error: "\(name): \(visit.word("userNotANumber"))", status: .badRequest)
                }
            default:
                if text.isEmpty {
                    if current != nil { body[name] = ["__op": "Delete"] }
                } else if text != current?.stringValue {
                    body[name] = .string(text)
                }
            }
        }
        guard !body.isEmpty else { return try await userPage(&visit, id: id, notice: visit.word("userNothingChanged")) }
        do {
            try await accounts.consoleUpdateUser(id, body: body)
        } catch let error as ParseError {
            return try await userPage(&visit, id: id, error: error.message, status: .badRequest)
        }
        return try await userPage(&visit, id: id, notice: visit.word("userSaved"))
    }
}
