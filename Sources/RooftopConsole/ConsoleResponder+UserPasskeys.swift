import Foundation
import HTTPTypes
import Hummingbird
import RooftopCore
import RooftopServices

/// A user's passkeys on their page: each one's name, when it was registered and last used,
/// whether it is backed up, and a warning when its counter went back (a possible clone); and the
/// removal of one by an owner, confirmed by typing the user's name on a page of its own, as the
/// second factor's removal is.
extension ConsoleResponder {
    /// The user page's values for the passkeys section: the list (each with, for an owner, where
    /// its removal's confirmation page is).
    func passkeyValues(_ visit: ConsoleVisit, user: StoredObject) -> [String: Any] {
        let owner = visit.admin?.role == .owner
        let passkeys = users(visit).passkeys(ofUser: user).map { passkey -> [String: Any] in
            var values = Self.passkeyFacts(visit, passkey)
            let id = passkey["id"]?.stringValue ?? ""
            // Only an id that a removal URL would accept gets a link (a stored list is the
            // server's own, but the URL must never carry what the route refuses).
            if owner && PasskeyWire.isCredentialId(id) { values["removal"] = Self.passkeyRemovalPath(visit, user.objectId, id) }
            return values
        }
        return ["passkeys": passkeys, "hasPasskeys": !passkeys.isEmpty]
    }

    /// One passkey as the pages show it: its name, times in the console's form, and its backup
    /// state in words.
    static func passkeyFacts(_ visit: ConsoleVisit, _ passkey: [String: JSON]) -> [String: Any] {
        func time(_ key: String) -> String? { passkey[key]?.stringValue.flatMap(ParseDate.init(iso:)).map(Self.time) }
        let backup: String
        switch (passkey["backupEligible"] == .bool(true), passkey["backedUp"] == .bool(true)) {
        case (_, true): backup = visit.word("passkeyBackedUp")
        case (true, false): backup = visit.word("passkeyNotBackedUp")
        case (false, false): backup = visit.word("passkeyDeviceBound")
        }
        return [
            "name": passkey["name"]?.stringValue ?? "", "created": time("createdAt") ?? "—",
            "lastUsed": time("lastUsedAt") ?? visit.word("passkeyNeverUsed"), "backup": backup,
            "counterWentBack": passkey["counterWentBack"] == .bool(true),
        ]
    }

    /// Where the confirmation page of the removal of `passkeyId` (already checked by
    /// `PasskeyWire.isCredentialId`, so it needs no escaping in a URL) is.
    static func passkeyRemovalPath(_ visit: ConsoleVisit, _ userId: String, _ passkeyId: String) -> String {
        visit.base + "/users/" + userId + "/passkeys/" + passkeyId + "/remove"
    }

    /// `GET /users/<id>/passkeys/<passkeyId>/remove` (owners): the confirmation page. An unknown
    /// user is the 404 page; a passkey the user does not have is their page, saying so, with 404.
    func passkeyRemovalPage(
        _ visit: inout ConsoleVisit, id: String, passkeyId: String, error: String? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        guard let user = try await users(visit).consoleUser(id) else { return visit.message(.notFound, "noUser", status: .notFound) }
        guard PasskeyWire.isCredentialId(passkeyId),
            let passkey = users(visit).passkeys(ofUser: user).first(where: { $0["id"]?.stringValue == passkeyId })
        else { return try await userPage(&visit, id: id, error: visit.word("passkeyNone"), status: .notFound) }
        let confirm = Self.confirmationName(user)
        var values = Self.passkeyFacts(visit, passkey)
        values.merge([
            "id": user.objectId, "username": user.fields["username"]?.stringValue ?? user.objectId, "confirmName": confirm.name,
            "label": visit.words[confirm.label] ?? confirm.label, "csrf": visit.admin?.csrf ?? "",
            "action": Self.passkeyRemovalPath(visit, user.objectId, passkeyId),
        ]) { _, new in new }
        return visit.page("userPasskey", title: visit.word("passkeyRemove"), values: values, status: status, error: error, section: "users")
    }

    /// `POST /users/<id>/passkeys/<passkeyId>/remove` (owners, with the CSRF token): removes the
    /// passkey when the typed name is exactly the one asked for; otherwise the confirmation page
    /// again, saying nothing was removed. The account's last way in is refused on the user's page
    /// (409); a passkey already gone (a second tab, another admin) is 404 there.
    func removePasskey(_ visit: inout ConsoleVisit, id: String, passkeyId: String) async throws -> Response {
        guard let user = try await users(visit).consoleUser(id) else { return visit.message(.notFound, "noUser", status: .notFound) }
        guard PasskeyWire.isCredentialId(passkeyId) else {
            return try await userPage(&visit, id: id, error: visit.word("passkeyNone"), status: .notFound)
        }
        guard visit.form["confirm"] == Self.confirmationName(user).name else {
            return try await passkeyRemovalPage(&visit, id: id, passkeyId: passkeyId, error: visit.word("passkeyMismatch"), status: .badRequest)
        }
        do {
            try await users(visit).removePasskey(ofUser: user.objectId, id: passkeyId)
        } catch let error as ParseError where error == AccountAdministration.noSuchPasskey {
            return try await userPage(&visit, id: id, error: visit.word("passkeyNone"), status: .notFound)
        } catch let error as ParseError where error.code == .operationForbidden {
            return try await userPage(&visit, id: id, error: visit.word("passkeyLastWayIn"), status: .conflict)
        } catch let error as ParseError {
            // The list kept changing under the removal (three writes raced): nothing was removed.
            return try await userPage(&visit, id: id, error: error.message, status: .conflict)
        }
        return try await userPage(&visit, id: id, notice: visit.word("passkeyRemoved"))
    }
}
