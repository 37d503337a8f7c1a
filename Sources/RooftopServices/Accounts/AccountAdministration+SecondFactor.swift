package import RooftopCore
import RooftopStorage

/// The console's view of a user's second factor: whether it is on, how many recovery codes are
/// left, and its removal by an admin.
extension AccountAdministration {
    /// The answer when the user has no second factor to remove (nothing is written).
    package static let noSecondFactor = ParseError(.otherCause, "This user has no second factor; nothing was removed.")

    /// How many unused recovery codes the user's second factor has left; nil when the user has
    /// none (or its stored state is not one, which logins ignore too).
    package func secondFactorRecoveryCodesLeft(_ user: StoredObject) -> Int? {
        SecondFactorState(of: user)?.recovery.count
    }

    /// Removes the user's second factor, as the master key's `authData.mfa = null` does: one
    /// write deletes the stored state, `authData.mfa` and any pending enrolment, then
    /// `second.factor.removed` is audited with the acting console admin (the origin's) named in
    /// its detail, and the user is sent the removal notice. A user without a second factor is `noSecondFactor`, and nothing is written;
    /// an unknown user is 101.
    package func removeSecondFactor(ofUser userId: String) async throws {
        guard let user = try await consoleUser(userId) else { throw ParseError.objectNotFound }
        let stored = user.fields[InternalField.secondFactor.rawValue]?.stringValue
        guard stored != nil || user.fields["authData"]?["mfa"] != nil else { throw Self.noSecondFactor }
        var write = ObjectWrite()
        write.operations = SecondFactor.removalOperations
        // Only the factor this admin saw: if another admin (or node) removed it meanwhile, the
        // write finds nothing to change and this removal records nothing.
        let access = stored.map { Access.master.requiring(.internal(.secondFactor), equals: $0) } ?? .master
        do {
            try await accounts.server.write([AsServer.update(.user, userId, at: accounts.objects.clock.now(), write, access: access)])
        } catch let error as ParseError where error.code == .objectNotFound {
            throw Self.noSecondFactor
        }
        await accounts.audit.record(
            .secondFactorRemoved, userId: userId, detail: origin.admin.map { "removed in the console by \($0)" }, origin: origin)
        SecurityNotices(accounts: accounts, origin: origin).notify(.secondFactorRemoved, userId: userId)
    }
}
