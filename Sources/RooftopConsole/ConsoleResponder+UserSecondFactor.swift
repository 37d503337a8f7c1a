import Foundation
import HTTPTypes
import Hummingbird
import RooftopCore
import RooftopServices

/// A user's second factor on their page: whether it is on and how many recovery codes are left,
/// and its removal by an owner, confirmed by typing the user's name on a page of its own.
extension ConsoleResponder {
    /// The user page's values for the second factor: its state, and (for an owner, when it is on)
    /// where the removal's confirmation page is.
    func secondFactorValues(_ visit: ConsoleVisit, user: StoredObject) -> [String: Any] {
        guard let left = users(visit).secondFactorRecoveryCodesLeft(user) else {
            return ["secondFactorState": visit.word("secondFactorOff"), "secondFactorKind": "none"]
        }
        let state = left == 1 ? visit.word("secondFactorOnOne") : visit.word("secondFactorOn").replacingOccurrences(of: "%d", with: "\(left)")
        var values: [String: Any] = ["secondFactorState": state, "secondFactorKind": "good"]
        if visit.admin?.role == .owner { values["secondFactorRemoval"] = visit.base + "/users/" + user.objectId + "/remove-second-factor" }
        return values
    }

    /// What the owner types to confirm a removal, as the delete form asks: the username; for a
    /// user without one, the email, else the objectId. Its label's word key comes with it.
    static func confirmationName(_ user: StoredObject) -> (name: String, label: String) {
        if let username = user.fields["username"]?.stringValue, !username.isEmpty { return (username, "username") }
        if let email = user.fields["email"]?.stringValue, !email.isEmpty { return (email, "email") }
        return (user.objectId, "objectId")
    }

    /// `GET /users/<id>/remove-second-factor` (owners): the confirmation page. A user without a
    /// second factor gets their page back, saying so.
    func secondFactorRemovalPage(
        _ visit: inout ConsoleVisit, id: String, error: String? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        guard let user = try await users(visit).consoleUser(id) else { return visit.message(.notFound, "noUser", status: .notFound) }
        guard users(visit).secondFactorRecoveryCodesLeft(user) != nil else {
            return try await userPage(&visit, id: id, error: visit.word("secondFactorNone"), status: .conflict)
        }
        let confirm = Self.confirmationName(user)
        let values: [String: Any] = [
            "id": user.objectId, "username": user.fields["username"]?.stringValue ?? user.objectId, "name": confirm.name,
            "label": visit.words[confirm.label] ?? confirm.label, "csrf": visit.admin?.csrf ?? "",
        ]
        return visit.page(
            "userSecondFactor", title: visit.word("secondFactorRemove"), values: values, status: status, error: error, section: "users")
    }

    /// `POST /users/<id>/remove-second-factor` (owners, with the CSRF token): removes the factor
    /// when the typed name is exactly the one asked for; otherwise the confirmation page again,
    /// saying nothing was removed.
    func removeSecondFactor(_ visit: inout ConsoleVisit, user: StoredObject) async throws -> Response {
        guard visit.form["confirm"] == Self.confirmationName(user).name else {
            return try await secondFactorRemovalPage(&visit, id: user.objectId, error: visit.word("secondFactorMismatch"), status: .badRequest)
        }
        do {
            try await users(visit).removeSecondFactor(ofUser: user.objectId)
        } catch let error as ParseError where error == AccountAdministration.noSecondFactor {
            return try await userPage(&visit, id: user.objectId, error: visit.word("secondFactorNone"), status: .conflict)
        }
        return try await userPage(&visit, id: user.objectId, notice: visit.word("secondFactorRemoved"))
    }
}
