import Foundation
import HTTPTypes
import Hummingbird
import RooftopCore
import RooftopServices

/// The users pages: search, one user's state (why can't they sign in?), and the owner's fixes.
extension ConsoleResponder {
    func usersPage(_ visit: inout ConsoleVisit) async throws -> Response {
        let query = visit.query["q"] ?? ""
        var values: [String: Any] = ["query": query]
        if !query.isEmpty {
            let found = try await users(visit).searchUsers(query)
            values["searched"] = true
            values["hasResults"] = !found.isEmpty
            values["results"] = found.map { user -> [String: Any] in
                [
                    "id": user.objectId, "username": user.fields["username"]?.stringValue ?? "", "email": user.fields["email"]?.stringValue ?? "",
                    "created": Self.time(user.createdAt),
                ]
            }
        }
        return visit.page("users", title: visit.word("users"), values: values, section: "users")
    }

    func userPage(
        _ visit: inout ConsoleVisit, id: String, notice: String? = nil, error: String? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        guard let user = try await users(visit).consoleUser(id) else { return visit.message(.notFound, "noUser", status: .notFound) }
        let username = user.fields["username"]?.stringValue ?? ""
        var values: [String: Any] = [
            "id": user.objectId, "username": username, "email": user.fields["email"]?.stringValue ?? "",
            "created": Self.time(user.createdAt), "updated": Self.time(user.updatedAt),
        ]
        switch (user.fields["email"]?.stringValue, user.fields["emailVerified"]) {
        case (nil, _): (values["emailState"], values["emailStateKind"]) = (visit.word("noEmail"), "none")
        case (_, .bool(true)?): (values["emailState"], values["emailStateKind"]) = (visit.word("verified"), "good")
        default: (values["emailState"], values["emailStateKind"]) = (visit.word("unverified"), "bad")
        }
        // Provider names only: the tokens and ids inside `authData` are never shown.
        var methods = user.fields["authData"]?.objectValue.map { Array($0.keys).sorted() } ?? []
        if user.fields[InternalField.hashedPassword.rawValue] != nil { methods.insert("password", at: 0) }
        values["methods"] = methods
        let failed = users(visit).failedLogins(user)
        if let until = users(visit).lockedUntil(user) {
            (values["lockState"], values["lockKind"]) = ("\(visit.word("locked")) \(Self.time(ParseDate(millisecondsSince1970: until)))", "bad")
        } else {
            values["lockState"] = failed > 0 ? "\(visit.word("notLocked")) (\(visit.word("failedAttempts")): \(failed))" : visit.word("notLocked")
            values["lockKind"] = "good"
        }
        let fields = user.json.filter { !Self.shownApart.contains($0.key) }.sorted { $0.key < $1.key }.prefix(100).map {
            key, value -> [String: Any] in
            ["name": key, "value": String(JSONWriter.string(value, sortedKeys: true).prefix(500))]
        }
        values["fields"] = Array(fields)
        values["hasFields"] = !fields.isEmpty
        let canChange = visit.admin?.role == .owner
        values["canChange"] = canChange
        values["csrf"] = visit.admin?.csrf ?? ""
        if canChange {
            values["deleteForm"] = Self.deleteForm(
                heading: visit.word("deleteUser"), action: visit.base + "/users/" + user.objectId + "/delete", label: visit.word("confirmLabel"),
                hint: visit.word("deleteHint"), name: username)
        }
        if canChange {
            var actions: [(String, String)] = []
            if user.fields["email"] != nil && accounts.sendsMail {
                if users(visit).mailsVerification && user.fields["emailVerified"] != .bool(true) { actions.append(("verify", "sendVerification")) }
                actions.append(("reset", "sendReset"))
            }
            if failed > 0 || users(visit).lockedUntil(user) != nil { actions.append(("unlock", "unlock")) }
            actions.append(("revoke-all", "revokeAll"))
            values["actions"] = actions.map { ["action": $0.0, "label": visit.word($0.1)] }
        }
        let sessions = try await users(visit).consoleSessions(ofUser: user.objectId)
        values["hasSessions"] = !sessions.isEmpty
        values["sessions"] = sessions.map { session -> [String: Any] in
            let f = session.fields
            let app = [f["appName"]?.stringValue, f["appVersion"]?.stringValue].compactMap { $0 }.joined(separator: " ")
            return [
                "sessionId": session.objectId, "device": f["deviceName"]?.stringValue ?? "—", "deviceType": f["deviceType"]?.stringValue ?? "—",
                "app": app.isEmpty ? "—" : app, "network": f["createdAddress"]?.stringValue ?? "—", "created": Self.time(session.createdAt),
                "lastUsed": f["lastUsedAt"]?["iso"]?.stringValue.flatMap(ParseDate.init(iso:)).map(Self.time) ?? "—",
            ]
        }
        let events = try await accounts.audit.find(.field(FieldPath(field: try FieldName("userId")), .equals(.string(user.objectId))), limit: 20)
        values["events"] = events.map(Self.event)
        values["hasEvents"] = !events.isEmpty
        values.merge(try await userPageExtras(visit, user: user)) { first, _ in first }
        values.merge(secondFactorValues(visit, user: user)) { first, _ in first }
        values.merge(passkeyValues(visit, user: user)) { first, _ in first }
        return visit.page("user", title: username, values: values, status: status, notice: notice, error: error, section: "users")
    }

    func userAction(_ visit: inout ConsoleVisit, id: String, action: String) async throws -> Response {
        guard let user = try await users(visit).consoleUser(id) else { return visit.message(.notFound, "noUser", status: .notFound) }
        let notice: String
        do {
            switch action {
            case "verify":
                try await users(visit).sendVerification(toUser: id)
                notice = "verificationSent"
            case "reset":
                try await users(visit).sendPasswordReset(toUser: id)
                notice = "resetSent"
            case "unlock":
                try await users(visit).unlock(id)
                notice = "unlocked"
            case "revoke-all":
                _ = try await users(visit).revokeAllSessions(ofUser: id)
                notice = "revokedAll"
            case "remove-second-factor":
                return try await removeSecondFactor(&visit, user: user)
            case "delete":
                guard let username = user.fields["username"]?.stringValue, visit.form["confirm"] == username else {
                    return try await userPage(&visit, id: id, error: visit.word("confirmMismatch"))
                }
                try await users(visit).consoleDeleteUser(id)
                var values: [String: Any] = ["query": ""]
                values["searched"] = false
                return visit.page("users", title: visit.word("users"), values: values, notice: visit.word("deleted"), section: "users")
            default:
                return visit.message(.notFound, "notFound", status: .notFound)
            }
        } catch let error as ParseError {
            return try await userPage(&visit, id: id, error: error.message)
        }
        return try await userPage(&visit, id: id, notice: visit.word(notice))
    }

    func revokeSession(_ visit: inout ConsoleVisit, id: String, session: String) async throws -> Response {
        do {
            try await users(visit).revokeSession(session, ofUser: id)
        } catch let error as ParseError {
            return try await userPage(&visit, id: id, error: error.message)
        }
        return try await userPage(&visit, id: id, notice: visit.word("revoked"))
    }

    /// Fields the profile shows in their own rows (or never: `authData`'s secrets).
    static let shownApart: Set<String> = [
        "objectId", "username", "email", "emailVerified", "createdAt", "updatedAt", "authData", "ACL", "sessionToken",
    ]

    /// A time as the console shows it: UTC, to the second.
    static func time(_ date: ParseDate) -> String {
        let iso = date.iso
        return String(iso.prefix(19)).replacingOccurrences(of: "T", with: " ") + " UTC"
    }

    static func event(_ event: StoredObject) -> [String: Any] {
        let f = event.fields
        let detail = [f["reason"]?.stringValue, f["detail"]?.stringValue].compactMap { $0 }.joined(separator: " · ")
        var values: [String: Any] = [
            "time": time(event.createdAt), "type": f["type"]?.stringValue ?? "", "admin": f["admin"]?.stringValue ?? "",
            "ip": f["ip"]?.stringValue ?? "", "detail": detail,
        ]
        if let user = f["userId"]?.stringValue { values["userId"] = user }
        return values
    }
}
