import Foundation
import HTTPTypes
import Hummingbird
import RooftopCore
import RooftopServices

/// The roles pages: every role, one role's users and role inheritance, and the owner's changes,
/// all through `_Role` writes as the API makes them (its name rules, its relation operations).
extension ConsoleResponder {
    static let rolesPageSize = 100

    func rolesPage(_ visit: inout ConsoleVisit, notice: String? = nil, error: String? = nil, status: HTTPResponse.Status = .ok) async throws
        -> Response
    {
        var params: [String: JSON] = ["order": "name", "limit": .number(Double(Self.rolesPageSize + 1)), "keys": "name,ACL"]
        let after = visit.query["after"].flatMap { RoleRules.isValidName($0) ? $0 : nil }
        if let after { params["where"] = ["name": ["$gt": .string(after)]] }
        let found = try await data.objects.find(.role, params: params, principal: .master).results
        let shown = found.prefix(Self.rolesPageSize)
        var values: [String: Any] = [
            "roles": shown.map { role -> [String: Any] in
                let id = role["objectId"]?.stringValue ?? ""
                return ["id": id, "name": role["name"]?.stringValue ?? "", "acl": ConsoleValues.short(role["ACL"], .acl)]
            },
            "hasRoles": !shown.isEmpty, "canChange": visit.admin?.role == .owner, "csrf": visit.admin?.csrf ?? "",
            "typedName": visit.form["name"] ?? "",
        ]
        if found.count > Self.rolesPageSize, let last = shown.last?["name"]?.stringValue {
            values["next"] = visit.base + "/roles?" + Self.encodeQuery(["after": last])
        }
        return visit.page("dataRoles", title: visit.word("roles"), values: values, status: status, notice: notice, error: error, section: "roles")
    }

    func createRole(_ visit: inout ConsoleVisit) async throws -> Response {
        let name = visit.form["name"] ?? ""
        var acl = ACL()
        if visit.form["publicRead"] != nil { acl.readers.insert("*") }
        if visit.form["publicWrite"] != nil { acl.writers.insert("*") }
        do {
            let created = try await data.objects.create(.role, body: ["name": .string(name), "ACL": acl.json], principal: .master)
            await accounts.audit.record(.adminRoleCreated, userId: nil, detail: "\(name) \(created.objectId)", origin: visit.origin)
            return try await rolePage(&visit, id: created.objectId, notice: visit.word("dataRoleCreated"))
        } catch let failure as ParseError {
            return try await rolesPage(&visit, error: failure.message, status: .badRequest)
        }
    }

    func rolePage(
        _ visit: inout ConsoleVisit, id: String, notice: String? = nil, error: String? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        guard ObjectId.isPlausible(id), let role = try await consoleRole(id) else { return visit.message(.notFound, "dataNoRole", status: .notFound) }
        let name = role["name"]?.stringValue ?? ""
        let pointer: JSON = ["__type": "Pointer", "className": "_Role", "objectId": .string(id)]
        func related(_ className: ClassName, _ key: String, _ label: String) async throws -> [[String: Any]] {
            let found = try await data.objects.find(
                className,
                params: [
                    "where": ["$relatedTo": ["object": pointer, "key": .string(key)]], "keys": .string(label), "limit": 100, "order": .string(label),
                ],
                principal: .master)
            return found.results.map { ["id": $0["objectId"]?.stringValue ?? "", "name": $0[label]?.stringValue ?? ""] }
        }
        let users = try await related(.user, "users", "username")
        let children = try await related(.role, "roles", "name")
        let parents = try await data.objects.find(
            .role, params: ["where": ["roles": pointer], "keys": "name", "limit": 100, "order": "name"], principal: .master
        ).results.map { ["id": $0["objectId"]?.stringValue ?? "", "name": $0["name"]?.stringValue ?? ""] }
        let values: [String: Any] = [
            "roleId": id, "name": name, "acl": ConsoleValues.short(role["ACL"], .acl), "objectHref": visit.base + "/data/_Role/" + id,
            "users": users, "hasUsers": !users.isEmpty, "children": children, "hasChildren": !children.isEmpty, "parents": parents,
            "hasParents": !parents.isEmpty, "canChange": visit.admin?.role == .owner, "csrf": visit.admin?.csrf ?? "",
        ]
        return visit.page("dataRole", title: name, values: values, status: status, notice: notice, error: error, section: "roles")
    }

    func consoleRole(_ id: String) async throws -> JSON? {
        do {
            return try await data.objects.get(.role, objectId: id, params: [:], principal: .master)
        } catch let failure as ParseError where failure.code == .objectNotFound {
            return nil
        }
    }

    func roleAction(_ visit: inout ConsoleVisit, id: String, action: String) async throws -> Response {
        guard ObjectId.isPlausible(id), let role = try await consoleRole(id) else { return visit.message(.notFound, "dataNoRole", status: .notFound) }
        let name = role["name"]?.stringValue ?? ""
        let (key, target, op): (String, ClassName, String)
        switch action {
        case "add-user": (key, target, op) = ("users", .user, "AddRelation")
        case "remove-user": (key, target, op) = ("users", .user, "RemoveRelation")
        case "add-role": (key, target, op) = ("roles", .role, "AddRelation")
        case "remove-role": (key, target, op) = ("roles", .role, "RemoveRelation")
        default: return visit.message(.notFound, "notFound", status: .notFound)
        }
        do {
            let typed = (visit.form["member"] ?? "").trimmingCharacters(in: .whitespaces)
            // A removal names the member the page listed, by objectId: never looked up by name.
            let member =
                op == "RemoveRelation"
                ? (ObjectId.isPlausible(typed) ? typed : nil) : try await target == .user ? resolveUser(typed) : resolveRole(typed)
            guard let member else { throw ParseError(.objectNotFound, visit.word(target == .user ? "noUser" : "dataNoRole")) }
            if target == .role && member == id { throw ParseError(.invalidRoleName, visit.word("dataRoleSelf")) }
            let pointer: JSON = ["__type": "Pointer", "className": .string(target.rawValue), "objectId": .string(member)]
            _ = try await data.objects.update(.role, objectId: id, body: [key: ["__op": .string(op), "objects": [pointer]]], principal: .master)
            await accounts.audit.record(
                .adminRoleUpdated, userId: target == .user ? member : nil, detail: "\(name) \(id) \(action) \(target) \(member)", origin: visit.origin
            )
        } catch let failure as ParseError {
            return try await rolePage(&visit, id: id, error: failure.message, status: .badRequest)
        }
        return try await rolePage(&visit, id: id, notice: visit.word("dataSaved"))
    }

    /// A role's objectId by objectId, else by name (objectId first, as for users).
    func resolveRole(_ text: String) async throws -> String? {
        guard text.utf8.count <= 256, !text.contains("\u{0}") else { return nil }
        var conditions: [JSON] = []
        if ObjectId.isPlausible(text) { conditions.append(["objectId": .string(text)]) }
        if RoleRules.isValidName(text) { conditions.append(["name": .string(text)]) }
        for condition in conditions {
            let found = try await data.objects.find(.role, params: ["where": condition, "keys": "objectId", "limit": 1], principal: .master)
            if let id = found.results.first?["objectId"]?.stringValue { return id }
        }
        return nil
    }
}
