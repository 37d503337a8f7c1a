import Foundation
import HTTPTypes
import Hummingbird
import RooftopCore
import RooftopHTTP
import RooftopServices

/// The schema pages: the class list (create a class), one class's fields, indexes and
/// class-level permissions, and the owner's changes. Every change goes through `data.schemas`,
/// the code behind `PUT /schemas/<Class>`, so the console refuses what the API refuses and
/// shows the API's message and code.
extension ConsoleResponder {
    func schemaListPage(_ visit: inout ConsoleVisit, status: HTTPResponse.Status = .ok, notice: String? = nil, error: String? = nil)
        async throws -> Response
    {
        let schemas = try await data.schemas.all().sorted { $0.className.rawValue < $1.className.rawValue }
        let values: [String: Any] = [
            "classes": schemas.map { schema -> [String: Any] in
                [
                    "name": schema.className.rawValue, "path": Self.pathComponent(schema.className.rawValue), "fieldCount": schema.fields.count,
                    "indexCount": schema.indexes.count,
                ]
            },
            "canChange": visit.admin?.role == .owner, "csrf": visit.admin?.csrf ?? "", "newName": visit.form["className"] ?? "",
        ]
        return visit.page(
            "schemaList", title: visit.word("schemaTitle"), values: values, status: status, notice: notice, error: error, section: "data")
    }

    /// `POST /console/schema`: creates a class, as `POST /schemas/<Class>` does.
    func createClass(_ visit: inout ConsoleVisit) async throws -> Response {
        let name = visit.form["className"] ?? ""
        do {
            let className = try ClassName(name)
            _ = try await data.schemas.create(className, body: [:])
            await accounts.audit.record(.adminSchemaChanged, userId: nil, detail: "\(className): class created", origin: visit.origin)
            return try await schemaPage(&visit, name: className.rawValue, notice: visit.word("schemaClassCreated"))
        } catch let error as ParseError {
            return try await schemaListPage(&visit, status: .badRequest, error: Self.refusal(error))
        }
    }

    func schemaPage(
        _ visit: inout ConsoleVisit, name: String, status: HTTPResponse.Status = .ok, notice: String? = nil, error: String? = nil
    ) async throws -> Response {
        let schema: ClassSchema
        do {
            schema = try await data.schemas.get(try ClassName(name))
        } catch let refusal as ParseError {
            return visit.page(
                "message", title: "404", values: ["heading": "404 \(HTTPResponse.Status.notFound.reasonPhrase)", "text": Self.refusal(refusal)],
                status: .notFound)
        }
        let all = try await data.schemas.all().map(\.className.rawValue).sorted()
        var values = schemaValues(schema, visit: visit, classes: all)
        values.merge(permissionValues(schema, visit: visit)) { first, _ in first }
        return visit.page(
            "schemaClass", title: schema.className.rawValue, values: values, status: status, notice: notice, error: error, section: "data")
    }

    /// `POST /console/schema/<Class>/<action>`.
    func schemaAction(_ visit: inout ConsoleVisit, name: String, action: String) async throws -> Response {
        // A missing class is the page's 404, whatever the action.
        guard let className = try? ClassName(name), (try? await data.schemas.get(className)) != nil else {
            return try await schemaPage(&visit, name: name)
        }
        let form = visit.form
        let body: [String: JSON]
        let detail: String
        do {
            switch action {
            case "fields":
                let field = form["name"] ?? ""
                body = ["fields": .object([field: try Self.fieldSpec(form, className: className)])]
                detail = "field \(ClassName.printable(field)) added"
            case "remove-field":
                let field = form["field"] ?? ""
                guard !field.isEmpty, form["confirm"] == field else {
                    return try await schemaPage(&visit, name: name, status: .badRequest, error: visit.word("schemaConfirmMismatch"))
                }
                body = ["fields": .object([field: ["__op": "Delete"]])]
                detail = "field \(ClassName.printable(field)) removed"
            case "indexes":
                let index = form["index"] ?? ""
                var keys: [String: JSON] = [:]
                for slot in 1...3 {
                    guard let field = form["field\(slot)"], !field.isEmpty, keys[field] == nil else { continue }
                    keys[field] = .number(form["direction\(slot)"] == "-1" ? -1 : 1)
                }
                body = ["indexes": .object([index: .object(keys)])]
                detail = "index \(ClassName.printable(index)) added"
            case "remove-index":
                let index = form["index"] ?? ""
                body = ["indexes": .object([index: ["__op": "Delete"]])]
                detail = "index \(ClassName.printable(index)) removed"
            case "permissions":
                guard form["end"] == "1" else {
                    return try await schemaPage(&visit, name: name, status: .badRequest, error: visit.word("schemaFormTooLarge"))
                }
                guard let permissions = try Self.permissions(form) else {
                    return try await schemaPage(&visit, name: name, status: .badRequest, error: visit.word("schemaProtectedFormat"))
                }
                body = ["classLevelPermissions": permissions.json]
                detail = "class-level permissions set"
            case "delete":
                guard form["confirm"] == className.rawValue else {
                    return try await schemaPage(&visit, name: name, status: .badRequest, error: visit.word("schemaConfirmMismatch"))
                }
                try await data.schemas.delete(className)
                await accounts.audit.record(.adminSchemaChanged, userId: nil, detail: "\(className): class deleted", origin: visit.origin)
                return try await schemaListPage(&visit, notice: visit.word("schemaClassDeleted"))
            default:
                return visit.message(.notFound, "notFound", status: .notFound)
            }
            // The API refuses these keywords in any request body before it reaches `/schemas`.
            try RequestGuard.checkKeywords(.object(body))
            _ = try await data.schemas.update(className, body: body)
        } catch let error as ParseError {
            return try await schemaPage(&visit, name: name, status: .badRequest, error: Self.refusal(error))
        }
        await accounts.audit.record(.adminSchemaChanged, userId: nil, detail: "\(className): \(detail)", origin: visit.origin)
        return try await schemaPage(&visit, name: name, notice: visit.word("schemaSaved"))
    }

    /// An API refusal as the page shows it: the API's message and its Parse code.
    static func refusal(_ error: ParseError) -> String { "\(error.message) (code \(error.code.rawValue))" }

    /// A class name as one URL path segment (class names are identifiers or `_System` names,
    /// so nothing needs escaping, but a stored name is never trusted into a link).
    static func pathComponent(_ name: String) -> String {
        name.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "_"))) ?? ""
    }

    /// The `/schemas` field spec from the add-field form: type, target class, `required`, and the
    /// default value read for the type. Text that does not read as the type is passed on as a
    /// string, so the API's own type check refuses it with its message.
    static func fieldSpec(_ form: [String: String], className: ClassName) throws -> JSON {
        let type = form["type"] ?? ""
        var spec: [String: JSON] = ["type": .string(type)]
        let target = form["targetClass"] ?? ""
        if type == "Pointer" || type == "Relation" { spec["targetClass"] = .string(target) }
        if form["required"] == "on" { spec["required"] = true }
        if let text = form["defaultValue"], !text.isEmpty { spec["defaultValue"] = defaultValue(text, type: type, target: target) }
        return .object(spec)
    }

    static func defaultValue(_ text: String, type: String, target: String) -> JSON {
        switch type {
        case "Number": return Double(text.trimmingCharacters(in: .whitespaces)).map(JSON.number) ?? .string(text)
        case "Boolean":
            return ["true": JSON.bool(true), "false": .bool(false)][text.trimmingCharacters(in: .whitespaces).lowercased()] ?? .string(text)
        case "Date":
            return ParseDate(iso: text.trimmingCharacters(in: .whitespaces)).map { ["__type": "Date", "iso": .string($0.iso)] } ?? .string(text)
        case "Pointer": return ["__type": "Pointer", "className": .string(target), "objectId": .string(text)]
        case "Object", "Array", "GeoPoint", "Polygon", "File", "Bytes": return (try? JSONParser.parse(text)) ?? .string(text)
        default: return .string(text)
        }
    }

    /// The Parse field types the add-field form offers (ACL is the built-in field only).
    static let fieldTypes = ["String", "Number", "Boolean", "Date", "Object", "Array", "GeoPoint", "File", "Bytes", "Polygon", "Pointer", "Relation"]

    func schemaValues(_ schema: ClassSchema, visit: ConsoleVisit, classes: [String]) -> [String: Any] {
        let fields = schema.fields.sorted { $0.key < $1.key }.filter { $0.key != "password" && !$0.key.hasPrefix("_") }
        let rows = fields.map { name, type -> [String: Any] in
            let options = schema.fieldOptions[name]
            return [
                "name": name, "type": type.name, "target": type.targetClass?.rawValue ?? "",
                "required": options?.required == true ? visit.word("schemaYes") : "",
                "defaultValue": options?.defaultValue.map { String(JSONWriter.string($0, sortedKeys: true).prefix(200)) } ?? "",
                "builtIn": schema.isDefaultField(name),
            ]
        }
        let indexes = schema.indexes.sorted { $0.key < $1.key }.map { name, keys -> [String: Any] in
            ["name": name, "keys": keys.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value < 0 ? "↓" : "↑")" }.joined(separator: ", ")]
        }
        let removable = fields.map(\.key).filter { !schema.isDefaultField($0) }
        let indexable = fields.map(\.key)
        let classPath = Self.pathComponent(schema.className.rawValue)
        let canChange = visit.admin?.role == .owner
        let deleteForm = Self.deleteForm(
            heading: visit.word("schemaDeleteClass"), action: visit.base + "/schema/" + classPath + "/delete",
            label: visit.word("schemaClassName"), hint: visit.word("schemaDeleteHint"), name: schema.className.rawValue)
        return [
            "className": schema.className.rawValue, "classPath": classPath, "fields": rows,
            "indexes": indexes, "hasIndexes": !indexes.isEmpty, "removable": removable, "hasRemovable": !removable.isEmpty,
            "indexable": indexable, "slots": [1, 2, 3].map { ["slot": $0] }, "types": Self.fieldTypes, "classes": classes,
            "canChange": canChange, "csrf": visit.admin?.csrf ?? "", "deleteForm": canChange ? deleteForm as Any : false,
            "sentences": PermissionSentences.sentences(schema.clp, language: visit.language).map(Self.codeParts),
        ]
    }

    /// A sentence split at its backticks: odd parts are names, shown as code.
    static func codeParts(_ sentence: String) -> [String: Any] {
        let parts = sentence.split(separator: "`", omittingEmptySubsequences: false).enumerated().map { index, text -> [String: Any] in
            ["text": String(text), "code": index % 2 == 1]
        }
        return ["parts": parts]
    }
}
