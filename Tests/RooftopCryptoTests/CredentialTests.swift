import RooftopCore
import RooftopCrypto
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

    /// Length, NUL, pattern, username and the common-password list (NIST rev 4 style: no
    /// composition rules by default).
    @Test func passwordPolicyRules() throws {
        var policy = PasswordPolicy()
        #expect(policy.problem("short", username: nil) == .tooShort(minimum: 8))
        #expect(policy.problem("", username: nil) == .missing)
        #expect(policy.problem(String(repeating: "x", count: 10_000), username: nil) == .tooLong(maximum: 256))
        #expect(policy.problem("abcdefgh\u{0}ijk", username: nil) == .invalidCharacter)
        #expect(policy.problem("password", username: nil) == .common)
        #expect(policy.problem("Qwerty123", username: nil) == .common)  // any letter case
        #expect(policy.problem("correct horse battery", username: nil) == nil)
        #expect(policy.problem(String(repeating: "é", count: 64), username: nil) == nil)  // 128 bytes: fine
        #expect(throws: ParseError(.validationError, "Password must be at least 8 characters long.")) { try policy.check("short", username: nil) }
        policy.doNotAllowUsername = true
        #expect(policy.problem("xxAnaSecret", username: "ana") == .containsUsername)
        policy.pattern = "[0-9]"
        policy.patternMessage = "Use a digit."
        #expect(policy.problem("no digits here", username: nil) == .pattern(message: "Use a digit."))
        #expect(policy.problem("one digit 1 here", username: nil) == nil)
        policy.refuseCommonPasswords = false
        policy.pattern = nil
        #expect(policy.problem("password", username: nil) == nil)
    }

    /// Passwords over bcrypt's 72 bytes are pre-hashed, never cut: a change after byte 72 counts.
    @Test func longPasswordsAreNotTruncated() async throws {
        let long = String(repeating: "パスワード", count: 10)  // 150 bytes
        let hash = try await hasher.hash(long)
        #expect(hash.hasPrefix("$2b$"))
        #expect(await hasher.verify(long, hash: hash))
        #expect(await !hasher.verify(long + "!", hash: hash))
        #expect(await !hasher.verify(String(long.utf8.prefix(72)) ?? "", hash: hash))
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

    /// Link tokens and file prefixes come from the crypto target, with their documented shape.
    @Test func linkTokensAndFilePrefixesAreRandomWithTheirShape() {
        let tokens = SessionTokens()
        let links = (0..<1000).map { _ in tokens.newLinkToken() }
        #expect(Set(links).count == 1000)
        #expect(links.allSatisfy { $0.count == 32 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
        let prefixes = (0..<1000).map { _ in tokens.newFilePrefix() }
        #expect(Set(prefixes).count == 1000)
        #expect(prefixes.allSatisfy { $0.count == 32 && $0.allSatisfy { "0123456789abcdef".contains($0) } })
    }
}
