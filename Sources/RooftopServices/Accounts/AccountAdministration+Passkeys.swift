package import RooftopCore

/// The console's view of a user's passkeys: the list on the user page, and an owner's removal of
/// one, through the same use case the user's own `DELETE /users/me/passkeys/:id` runs (so the
/// last-way-in refusal, the audit event and the notice are the same).
extension AccountAdministration {
    /// The answer when the passkey is not (or no longer) the user's: nothing was removed.
    package static let noSuchPasskey = PasskeyManagement.notFound

    /// The user's passkeys as the user sees them (`id`, `name`, `createdAt`, `lastUsedAt`,
    /// `backupEligible`, `backedUp`, `counterWentBack`), oldest first, never their keys. Read from
    /// `user` as the page already has it, so the list and the profile beside it agree.
    package func passkeys(ofUser user: StoredObject) -> [[String: JSON]] {
        StoredPasskeys.of(user).passkeys.items.map(\.answer)
    }

    /// Removes the passkey `id` of the user, as the user's own removal does, with the acting
    /// console admin (the origin's) named in the `passkey.removed` event's detail; the user is sent
    /// the `passkey_removed` notice. An unknown user or passkey is `noSuchPasskey`, and nothing is
    /// written (the list is read first: a user who never had passkeys gets no empty list either);
    /// the account's last way to sign in is refused with 119.
    package func removePasskey(ofUser userId: String, id: String) async throws {
        guard let user = try await consoleUser(userId), StoredPasskeys.of(user).passkeys.index(of: id) != nil else {
            throw Self.noSuchPasskey
        }
        // The removal reads the list again and writes requiring it: a removal racing this one
        // (another admin, the user) makes this one `noSuchPasskey`, never a second event.
        try await PasskeyManagement(accounts: accounts, origin: origin).remove(userId: userId, id: id, by: origin.admin)
    }
}
