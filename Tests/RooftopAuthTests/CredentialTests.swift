import RooftopAuth
import RooftopCore
import RooftopServices
import Testing

@Suite struct CredentialTests {
    let hasher = BcryptPasswordHasher(cost: 4)

    @Test func hashesVerifyAndDiffer() async throws {
        let a = try await hasher.hash("correct horse")
        let b = try await hasher.hash("correct horse")
        #expect(a.hasPrefix("$2b$04$"))
        #expect(a != b)
        #expect(await hasher.verify("correct horse", hash: a))
        #expect(await !hasher.verify("correct horsf", hash: a))
        #expect(await !hasher.verify("correct horse", hash: hasher.dummyHash))
        #expect(await !hasher.verify("x", hash: "not a hash"))
    }

    /// Hashes made by Parse Server (bcryptjs: `$2a$`/`$2b$`) and PHP (`$2y$`) verify.
    @Test func importedHashesVerify() async throws {
        // bcrypt("password", cost 10) in each spelling of the prefix, same salt and digest.
        let digest = "10$M.bfLt1i8oigWnDKd2Ty5.PkA5TSBTFpWWQemFkXbsPD5DxTQQWoK"
        for prefix in ["$2a$", "$2b$", "$2y$"] {
            #expect(await hasher.verify("password", hash: prefix + digest), "\(prefix)")
            #expect(await !hasher.verify("Password", hash: prefix + digest), "\(prefix)")
        }
    }

    @Test func passwordRulesRefuseTruncation() throws {
        #expect(throws: ParseError(.validationError, "Password must be at least 8 characters long.")) {
            try PasswordRules.check("short", minLength: 8)
        }
        #expect(throws: ParseError.self) { try PasswordRules.check(String(repeating: "é", count: 40), minLength: 8) }
        #expect(throws: ParseError.self) { try PasswordRules.check("abcdefgh\u{0}ijk", minLength: 8) }
        #expect(throws: ParseError.self) { try PasswordRules.check("", minLength: 8) }
        try PasswordRules.check(String(repeating: "a", count: 72), minLength: 8)
    }

    @Test func tokensAreRandomAndStoredAsDigests() {
        let tokens = SessionTokens()
        let t = tokens.newToken()
        #expect(t.count == 34 && t.hasPrefix("r:"))
        #expect(t.dropFirst(2).allSatisfy { "0123456789abcdef".contains($0) })
        #expect(Set((0..<1000).map { _ in tokens.newToken() }).count == 1000)
        #expect(tokens.digest("r:abc") == "c40ea82ff6e8df75efc3c7ac26796cf7e291b8d1c8c0049c92e853b42ee8509a")
        #expect(tokens.digest(t) != t && tokens.digest(t) == tokens.digest(t))
    }
}
