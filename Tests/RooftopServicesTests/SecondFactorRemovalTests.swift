import Foundation
import RooftopCore
import RooftopCrypto
import RooftopServices
import RooftopStorage
import RooftopTesting
import Testing

/// The console's removal of a user's second factor at the service level (`AccountAdministration`),
/// over the run's store: the recovery codes left, one removal that deletes both fields and is
/// audited with the admin's name, and nothing written when there is nothing to remove.
@Suite struct SecondFactorRemovalTests: LiveServerTest {
    static let secret: [UInt8] = (0..<20).map { UInt8(truncatingIfNeeded: $0 &* 53 &+ 5) }

    @Test func anAdminRemovesAFactorOnceAndItIsAudited() async throws {
        try await withAccounts(AccountsConfiguration()) { accounts, now in
            let signUp = try await SignUp(accounts: accounts, origin: .server).signUp(
                body: ["username": "ana", "password": "right phrase 1"], installationId: nil, principal: .master)
            let id = signUp.user.objectId
            let admin = AccountAdministration(accounts: accounts, origin: RequestOrigin(clientIP: "127.0.0.1", admin: "ops"))
            let removed = QueryNode.field(FieldPath(field: try FieldName("type")), .equals("second.factor.removed"))

            // Nothing to remove: refused, and the user is not written.
            let before = try #require(try await admin.consoleUser(id))
            #expect(admin.secondFactorRecoveryCodesLeft(before) == nil)
            await #expect(throws: AccountAdministration.noSecondFactor) { try await admin.removeSecondFactor(ofUser: id) }
            #expect(try await admin.consoleUser(id)?.updatedAt == before.updatedAt)
            await #expect { try await admin.removeSecondFactor(ofUser: "nosuchuser1") } throws: {
                ($0 as? ParseError)?.code == .objectNotFound
            }
            for hostile in ["ab\u{0}cd", String(repeating: "a", count: 10_240)] {
                await #expect { try await admin.removeSecondFactor(ofUser: hostile) } throws: { ($0 as? ParseError)?.code == .objectNotFound }
            }

            let code = TOTP.code(secret: Self.secret, step: now.withLock { $0 } / 1000 / 30)
            let mfa: JSON = ["secret": .string(Base32.encode(Self.secret)), "token": .string(code)]
            _ = try await UserChanges(accounts: accounts, origin: .server).updateUser(
                id, body: ["authData": ["mfa": mfa]], principal: .user(id), installationId: nil)
            let enrolled = try #require(try await admin.consoleUser(id))
            #expect(admin.secondFactorRecoveryCodesLeft(enrolled) == 10)
            #expect(enrolled.fields["authData"]?["mfa"] == ["status": "enabled"])

            try await admin.removeSecondFactor(ofUser: id)
            let after = try #require(try await admin.consoleUser(id))
            #expect(after.fields[InternalField.secondFactor.rawValue] == nil)
            #expect(after.fields["authData"]?["mfa"] == nil)
            #expect(admin.secondFactorRecoveryCodesLeft(after) == nil)
            let events = try await accounts.audit.find(removed, limit: 10)
            #expect(events.count == 1)
            #expect(events.first?.fields["userId"] == .string(id))
            #expect(events.first?.fields["admin"] == "ops")
            #expect(events.first?.fields["detail"] == "removed in the console by ops")

            // Again: nothing to remove, nothing more recorded.
            await #expect(throws: AccountAdministration.noSecondFactor) { try await admin.removeSecondFactor(ofUser: id) }
            #expect(try await accounts.audit.find(removed, limit: 10).count == 1)
        }
    }
}
