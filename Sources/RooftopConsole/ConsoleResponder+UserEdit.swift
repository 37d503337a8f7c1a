import Foundation
import HTTPTypes
import Hummingbird
import RooftopCore
import RooftopServices

/// A user's page, continued: the objects they own and the edit form of their fields.
extension ConsoleResponder {
    /// How many custom fields the edit form offers (a console form carries at most
    /// `maxFormPairs` pairs).
    static let editableFieldLimit = 200
    /// Objects listed per owning field, and the count shown before "50+".
    static let ownedShown = 10
    static let ownedCounted = 50

    /// The user page's values for the owned objects and the edit form.
    func userPageExtras(_ visit: ConsoleVisit, user: StoredObject) async throws -> [String: Any] {
        var values: [String: Any] = [:]
        let schemas = try await data.schemas.all()
        let userSchema = schemas.first { $0.className == .user }
        let shown = Self.shownValues(user, userSchema)
        values["editFields"] = Self.editableFields(userSchema).map { name, type -> [String: Any] in
            var field: [String: Any] = ["name": name, "type": type.name, "inputId": "edit-" + name]
            guard let text = shown["field." + name] else {
                // A one-line input would drop the line breaks on the next save.
                field["isMultiline"] = true
                return field
            }
            switch type {
            case .boolean: field["isBoolean"] = true
            case .number: field["isNumber"] = true
            default: field["isText"] = true
            }
            field["checked"] = text == "on"
            field["value"] = text
            return field
        }
        // What the form shows, sent back with it: a save changes only what the admin changed,
        // never a value the app changed since the page was loaded.
        values["editOriginal"] = JSONWriter.string(.object(shown.mapValues(JSON.string)), sortedKeys: true)
        values["emailVerifiedChecked"] = user.fields["emailVerified"]?.boolValue == true
        let owned = try await ownedObjects(of: user.objectId, schemas: schemas)
        values["owned"] = owned
        values["hasOwned"] = !owned.isEmpty
        values["viewClasses"] = Self.viewableClasses(schemas).map { ["name": $0] }
        return values
    }

    /// The edit form's fields as it shows them (`on` or empty for a checkbox), by form name; a
    /// string of several lines is left out (shown, not edited).
    static func shownValues(_ user: StoredObject, _ schema: ClassSchema?) -> [String: String] {
        var shown = [
            "username": user.fields["username"]?.stringValue ?? "", "email": user.fields["email"]?.stringValue ?? "",
            "emailVerified": user.fields["emailVerified"]?.boolValue == true ? "on" : "",
        ]
        for (name, type) in editableFields(schema) {
            let current = user.fields[name]
            switch type {
            case .boolean: shown["field." + name] = current?.boolValue == true ? "on" : ""
            case .number: shown["field." + name] = current?.numberValue.map { JSONWriter.string(.number($0)) } ?? ""
            default:
                let text = current?.stringValue ?? ""
                if !text.contains(where: \.isNewline) { shown["field." + name] = text }
            }
        }
        return shown
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
                // One class's failing beforeFind must not take down the page that explains why
                // a user cannot sign in: that class is left out.
                guard let found = try? await data.objects.find(schema.className, params: params, principal: .master).results else { continue }
                guard !found.isEmpty else { continue }
                let name = schema.className.rawValue
                let count = found.count > Self.ownedCounted ? "\(Self.ownedCounted)+" : "\(found.count)"
                groups.append([
                    "className": name, "field": field, "count": count,
                    "classHref": "\(name)?" + Self.encodeQuery(["where": JSONWriter.string(condition, sortedKeys: true)]),
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

    /// `POST /users/<id>/edit`: the changed fields, through the same use case as
    /// `PUT /users/:id` with the master key; a refusal shows the API's message and changes
    /// nothing.
    func editUser(_ visit: inout ConsoleVisit, id: String) async throws -> Response {
        guard let user = try await users(visit).consoleUser(id) else { return visit.message(.notFound, "noUser", status: .notFound) }
        let form = visit.form
        // Only what differs from the page as it was shown counts as a change; a form without
        // that record (or a field the page did not show) changes nothing.
        guard let text = form["orig"], case .object(let original)? = try? JSONParser.parse(text) else {
            return try await userPage(&visit, id: id, error: visit.word("badToken"), status: .badRequest)
        }
        let schema = try await data.schemas.all().first { $0.className == .user }
        let now = Self.shownValues(user, schema)
        // Changed by the admin (unlike the page as shown) and not already so (a replay).
        func changed(_ key: String, checkbox: Bool = false) -> String? {
            guard case .string(let shown)? = original[key], let current = now[key] else { return nil }
            let posted = checkbox ? (form[key] == "on" ? "on" : "") : form[key]
            guard let posted, posted != shown, posted != current else { return nil }
            return posted
        }
        var body: [String: JSON] = [:]
        for name in ["username", "email"] {
            if let text = changed(name) { body[name] = .string(text) }
        }
        if let verified = changed("emailVerified", checkbox: true) { body["emailVerified"] = .bool(verified == "on") }
        for (name, type) in Self.editableFields(schema) {
            guard let text = changed("field." + name, checkbox: type == .boolean) else { continue }
            let current = user.fields[name]
            switch type {
            case .boolean:
                body[name] = .bool(text == "on")
            case .number:
                if text.isEmpty {
                    if current != nil { body[name] = ["__op": "Delete"] }
                } else if let number = Double(text), number.isFinite {
                    body[name] = .number(number)
                } else {
                    return try await userPage(&visit, id: id, error: "\(name): \(visit.word("userNotANumber"))", status: .badRequest)
                }
            default:
                if text.isEmpty {
                    if current != nil { body[name] = ["__op": "Delete"] }
                } else {
                    body[name] = .string(text)
                }
            }
        }
        guard !body.isEmpty else { return try await userPage(&visit, id: id, notice: visit.word("userNothingChanged")) }
        do {
            try await users(visit).consoleUpdateUser(id, body: body)
        } catch let error as ParseError {
            return try await userPage(&visit, id: id, error: error.message, status: .badRequest)
        }
        return try await userPage(&visit, id: id, notice: visit.word("userSaved"))
    }
}
