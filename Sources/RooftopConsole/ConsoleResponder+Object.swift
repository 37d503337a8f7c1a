import Foundation
import HTTPTypes
import Hummingbird
import RooftopCore
import RooftopServices

/// One object: view, typed editors, the ACL grid, create and delete, all through the API's
/// `Objects` as the master, so triggers, validations and refusals are the API's.
extension ConsoleResponder {
    func objectPage(
        _ visit: inout ConsoleVisit, schema: ClassSchema, id: String?, notice: String? = nil, error: String? = nil,
        status: HTTPResponse.Status = .ok, typed: [String: String] = [:]
    ) async throws -> Response {
        let className = schema.className
        var object: JSON = [:]
        if let id {
            guard ObjectId.isPlausible(id) else { return visit.message(.notFound, "dataNoObject", status: .notFound) }
            do {
                object = try await data.objects.get(className, objectId: id, params: [:], principal: .master)
            } catch let failure as ParseError where failure.code == .objectNotFound {
                return visit.message(.notFound, "dataNoObject", status: .notFound)
            }
        }
        let canChange = visit.admin?.role == .owner && Self.writable(className)
        let classPath = visit.base + "/data/" + className.rawValue
        var values: [String: Any] = [
            "className": className.rawValue, "classHref": classPath, "isNew": id == nil, "canChange": canChange,
            "csrf": visit.admin?.csrf ?? "", "readOnlyClass": !Self.writable(className),
        ]
        if let id {
            values["id"] = id
            values["action"] = classPath + "/" + id
            values["created"] = object["createdAt"]?.stringValue.flatMap(ParseDate.init(iso:)).map(Self.time) ?? ""
            values["updated"] = object["updatedAt"]?.stringValue.flatMap(ParseDate.init(iso:)).map(Self.time) ?? ""
            if canChange {
                values["deleteForm"] = Self.deleteForm(
                    heading: visit.word("dataDeleteObject"), action: classPath + "/" + id + "/delete", label: "objectId",
                    hint: visit.word("dataDeleteHint"), name: id)
            }
            if className == .user { values["userHref"] = visit.base + "/users/" + id }
            if className == .role { values["roleHref"] = visit.base + "/roles/" + id }
        }
        values["fields"] = schema.fields.keys.sorted().filter { !["objectId", "createdAt", "updatedAt", "ACL"].contains($0) }.map {
            name -> [String: Any] in
            let type = schema.fields[name] ?? .string
            let stored = object[name]
            var text = typed[name] ?? ConsoleValues.editorText(stored, type)
            // A one-line input drops line breaks: a string of several lines gets a text area.
            let kind = type == .string && text.contains(where: \.isNewline) ? "json" : ConsoleValues.editorKind(type)
            var field: [String: Any] = ["name": name, "type": type.name, "kind_" + kind: true]
            let editable = canChange && ConsoleValues.editable(name, type, className: className)
            field["editable"] = editable
            if case .pointer(let target) = type {
                field["target"] = target.rawValue
                if let pointed = stored?["objectId"]?.stringValue { field["targetHref"] = visit.base + "/data/" + target.rawValue + "/" + pointed }
            }
            if case .relation(let target) = type, let id {
                let related: JSON = [
                    "$relatedTo": [
                        "object": ["__type": "Pointer", "className": .string(className.rawValue), "objectId": .string(id)], "key": .string(name),
                    ]
                ]
                field["relationHref"] = visit.base + "/data/" + target.rawValue + "?" + Self.encodeQuery(["where": JSONWriter.string(related)])
                field["target"] = target.rawValue
            }
            if type == .file {
                field["fileName"] = stored?["name"]?.stringValue ?? ""
                // The API's URL for the name: a client's stored `url` could point anywhere.
                if let name = stored?["name"]?.stringValue, let url = data.fileURL { field["fileURL"] = url(name, visit.request) }
            }
            if type == .geoPoint {
                let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                field["lat"] = parts.first ?? ""
                field["lng"] = parts.count > 1 ? parts[1] : ""
            }
            if type == .boolean { field["isTrue"] = text == "true"; field["isFalse"] = text == "false" }
            if !editable { text = stored.map { ConsoleValues.short($0, type) } ?? "" }
            field["value"] = text
            return field
        }
        // The texts the editors start with: a POST sends only the fields whose text changed
        // since, so a field changed meanwhile by someone else is not overwritten.
        var original: [String: JSON] = [:]
        for (name, type) in schema.fields where ConsoleValues.editable(name, type, className: className) {
            original[name] = .string(ConsoleValues.editorText(object[name], type))
        }
        values["original"] = JSONWriter.string(.object(original), sortedKeys: true)
        if id != nil {
            let acl = (object["ACL"]).flatMap { try? ACL(json: $0) } ?? ACL()
            values["acl"] = try await aclRows(acl, visit: visit)
            values["aclEditable"] = canChange && acl.readers.union(acl.writers).count <= Self.maxACLRows
        }
        let title = id.map { className.rawValue + " " + $0 } ?? className.rawValue + " · " + visit.word("dataNew")
        return visit.page("dataObject", title: title, values: values, status: status, notice: notice, error: error, section: "data")
    }

    /// ACL rows above this are shown, not edited here (each row is two form fields).
    static let maxACLRows = 250

    func aclRows(_ acl: ACL, visit: ConsoleVisit) async throws -> [[String: Any]] {
        let keys = acl.readers.union(acl.writers)
        let userIds = keys.filter { $0 != "*" && !$0.hasPrefix("role:") }.sorted()
        var names: [String: String] = [:]
        if !userIds.isEmpty {
            let found = try await data.objects.find(
                .user, params: ["where": ["objectId": ["$in": .array(userIds.prefix(100).map(JSON.string))]], "keys": "username", "limit": 100],
                principal: .master)
            for user in found.results {
                if let id = user["objectId"]?.stringValue { names[id] = user["username"]?.stringValue }
            }
        }
        let ordered = (keys.contains("*") ? ["*"] : []) + userIds + keys.filter { $0.hasPrefix("role:") }.sorted()
        return ordered.map { key -> [String: Any] in
            var row: [String: Any] = ["key": key, "read": acl.readers.contains(key), "write": acl.writers.contains(key)]
            if key == "*" {
                row["label"] = visit.word("dataPublic")
            } else if key.hasPrefix("role:") {
                row["label"] = key
            } else {
                row["label"] = names[key].map { "\($0) (\(key))" } ?? key
                row["userHref"] = visit.base + "/users/" + key
            }
            return row
        }
    }

    func objectAction(_ visit: inout ConsoleVisit, schema: ClassSchema, id: String, action: String) async throws -> Response {
        guard ObjectId.isPlausible(id) else { return visit.message(.notFound, "dataNoObject", status: .notFound) }
        guard Self.writable(schema.className) else { return visit.message(.forbidden, "dataReadOnlyClass", status: .forbidden) }
        let className = schema.className
        guard visit.form.count < Self.maxFormPairs else {
            return try await objectPage(&visit, schema: schema, id: id, error: visit.word("dataTooManyFields"), status: .badRequest)
        }
        do {
            switch action {
            case "save":
                let current = try await data.objects.get(className, objectId: id, params: [:], principal: .master)
                let body = try Self.changedFields(visit.form, schema: schema, current: current)
                if body.isEmpty { return try await objectPage(&visit, schema: schema, id: id, notice: visit.word("dataNothingChanged")) }
                _ = try await data.objects.update(className, objectId: id, body: body, principal: .master)
            case "acl":
                let acl = try await Self.formACL(visit.form, resolve: resolveUser)
                _ = try await data.objects.update(className, objectId: id, body: ["ACL": acl.json], principal: .master)
            case "delete":
                guard visit.form["confirm"] == id else {
                    return try await objectPage(&visit, schema: schema, id: id, error: visit.word("dataConfirmMismatch"), status: .badRequest)
                }
                if className == .user {
                    // The account use case: it ends the user's sessions too, and records user.deleted.
                    try await users(visit).consoleDeleteUser(id)
                } else {
                    try await data.objects.delete(className, objectId: id, principal: .master)
                    await accounts.audit.record(.adminObjectDeleted, userId: nil, detail: "\(className) \(id)", origin: visit.origin)
                }
                return visit.page(
                    "dataDeleted", title: className.rawValue, values: ["className": className.rawValue], notice: visit.word("dataDeleted"),
                    section: "data")
            default:
                return visit.message(.notFound, "notFound", status: .notFound)
            }
        } catch let failure as ParseError {
            if failure.code == .objectNotFound, try await !consoleObjectExists(className, id) {
                return visit.message(.notFound, "dataNoObject", status: .notFound)
            }
            return try await objectPage(
                &visit, schema: schema, id: id, error: failure.message, status: .badRequest, typed: Self.typedValues(visit.form))
        }
        await accounts.audit.record(.adminObjectUpdated, userId: className == .user ? id : nil, detail: "\(className) \(id)", origin: visit.origin)
        return try await objectPage(&visit, schema: schema, id: id, notice: visit.word("dataSaved"))
    }

    func consoleObjectExists(_ className: ClassName, _ id: String) async throws -> Bool {
        do {
            _ = try await data.objects.get(className, objectId: id, params: [:], principal: .master)
            return true
        } catch let failure as ParseError where failure.code == .objectNotFound {
            return false
        }
    }

    func createObject(_ visit: inout ConsoleVisit, schema: ClassSchema) async throws -> Response {
        let className = schema.className
        guard Self.writable(className) else { return visit.message(.forbidden, "dataReadOnlyClass", status: .forbidden) }
        do {
            guard visit.form.count < Self.maxFormPairs else { throw ParseError(.invalidJSON, visit.word("dataTooManyFields")) }
            let body = try Self.changedFields(visit.form, schema: schema, current: [:])
            let created = try await data.objects.create(className, body: body, principal: .master)
            await accounts.audit.record(
                .adminObjectCreated, userId: className == .user ? created.objectId : nil, detail: "\(className) \(created.objectId)",
                origin: visit.origin)
            return try await objectPage(&visit, schema: schema, id: created.objectId, notice: visit.word("dataCreated"))
        } catch let failure as ParseError {
            return try await objectPage(
                &visit, schema: schema, id: nil, error: failure.message, status: .badRequest, typed: Self.typedValues(visit.form))
        }
    }

    /// The editors' texts as typed (`v:<field>`, a GeoPoint's two boxes joined), to show again
    /// after a refusal.
    static func typedValues(_ form: [String: String]) -> [String: String] {
        var typed: [String: String] = [:]
        for (key, value) in form where key.hasPrefix("v:") {
            let name = String(key.dropFirst(2))
            typed[name] = form["lng:" + name].map { value + "," + $0 } ?? value
        }
        return typed
    }

    /// The fields whose editor text differs from the stored value's, as a body for the API:
    /// an emptied box deletes the field. Fields the console does not edit are never sent.
    static func changedFields(_ form: [String: String], schema: ClassSchema, current: JSON) throws(ParseError) -> [String: JSON] {
        var body: [String: JSON] = [:]
        let original = form["orig"].flatMap { try? JSONParser.parse($0, maxDepth: 2) }?.objectValue ?? [:]
        for (name, text) in typedValues(form) {
            guard let type = schema.fields[name], ConsoleValues.editable(name, type, className: schema.className) else { continue }
            let normalized = ConsoleValues.submitted(text, type)
            let before = original[name]?.stringValue ?? ConsoleValues.editorText(current[name], type)
            if normalized == before { continue }
            if let value = try ConsoleValues.parse(normalized, type, field: name) {
                body[name] = value
            } else if current[name] != nil {
                body[name] = ["__op": "Delete"]
            }
        }
        return body
    }

    /// The ACL the grid's form states: `r:<key>` and `w:<key>` checkboxes, plus one new entry
    /// (a username, a user's objectId, `*` or `role:<name>`).
    static func formACL(_ form: [String: String], resolve: (String) async throws -> String?) async throws -> ACL {
        var acl = ACL()
        for (field, _) in form {
            let key = String(field.dropFirst(2))
            guard field.hasPrefix("r:") || field.hasPrefix("w:"), ACL.isValidEntry(key) else { continue }
            if field.hasPrefix("r:") { acl.readers.insert(key) } else { acl.writers.insert(key) }
        }
        let added = (form["addKey"] ?? "").trimmingCharacters(in: .whitespaces)
        if !added.isEmpty {
            let key: String
            if added == "*" || added.hasPrefix("role:") {
                key = added
            } else if let id = try await resolve(added) {
                key = id
            } else {
                throw ParseError(.invalidJSON, "No user is named \(ClassName.printable(added)).")
            }
            guard ACL.isValidEntry(key) else { throw ParseError(.invalidJSON, "Invalid ACL entry: \(ClassName.printable(added))") }
            if form["addRead"] != nil { acl.readers.insert(key) }
            if form["addWrite"] != nil { acl.writers.insert(key) }
        }
        return acl
    }

    /// A user's objectId by objectId, else by username. The objectId comes first: anyone can
    /// sign up with a username that is another user's objectId, and must not be taken for them.
    func resolveUser(_ text: String) async throws -> String? {
        guard text.utf8.count <= 256, !text.contains("\u{0}") else { return nil }
        var conditions: [JSON] = []
        if ObjectId.isPlausible(text) { conditions.append(["objectId": .string(text)]) }
        conditions.append(["username": .string(text)])
        for condition in conditions {
            let found = try await data.objects.find(.user, params: ["where": condition, "keys": "objectId", "limit": 1], principal: .master)
            if let id = found.results.first?["objectId"]?.stringValue { return id }
        }
        return nil
    }
}
