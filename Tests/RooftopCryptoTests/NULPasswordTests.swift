import RooftopCore
import RooftopCrypto
import RooftopServices
import Testing

/// bcrypt's C code stops at NUL: the hasher must neither hash nor match a password holding one.
@Suite struct NULPasswordTests {
    @Test func nulNeverMatchesTheShorterPassword() async throws {
        let hasher = BcryptPasswordHasher(cost: 4)
        let hash = try await hasher.hash("secret phrase")
        #expect(await hasher.verify("secret phrase", hash: hash))
        #expect(await !hasher.verify("secret phrase\u{0}anything", hash: hash))
        #expect(await !hasher.verify("secret phrase\u{0}", hash: hash))
        await #expect(throws: ParseError.self) { _ = try await hasher.hash("secret phrase\u{0}x") }
    }

    /// Context-specific words, case-insensitively and with digits and symbols around them.
    @Test func contextWordsAreRefused() {
        let policy = PasswordPolicy()
        #expect(policy.problem("Lovelace", username: "lovelace") == .containsUsername)
        #expect(policy.problem("rooftop2024!", username: "ana", context: ["Rooftop"]) != nil)
        #expect(policy.problem("ana@example.com", username: "bob", context: ["ana@example.com", "ana"]) != nil)
        #expect(policy.problem("rooftop is where we meet", username: "ana", context: ["Rooftop"]) == nil)
    }
}
