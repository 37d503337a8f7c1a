package import RooftopCore

/// How a session was authenticated, from its `createdWith` (all strings, as Parse SDKs decode
/// it): the first factor (`authProvider`: `password`, a provider's name, `anonymous`,
/// `masterkey`, `passkey`) and the second, if one was proved (`secondFactor`: `totp`, `recovery`,
/// `passkey` in place of a code, or `userVerified` for a passkey whose authenticator verified
/// the user). A
/// feature that needs a recent strong sign-in reads it with the session's `createdAt`.
package struct SessionStrength: Sendable, Equatable {
    /// The first factor: `password`, a provider's name, `anonymous`, `masterkey` or `passkey`.
    package var firstFactor: String
    /// The second factor proved at sign-in (`totp`, `recovery`, `passkey`, `userVerified`), if any.
    package var secondFactor: String?

    /// The strength recorded in a session's `createdWith`; nil when it has none.
    package init?(createdWith: JSON?) {
        guard let provider = createdWith?["authProvider"]?.stringValue else { return nil }
        firstFactor = provider
        secondFactor = createdWith?["secondFactor"]?.stringValue
    }

    /// Whether two factors were proved.
    package var isMultiFactor: Bool { secondFactor != nil }

    /// A session's `createdWith`.
    static func createdWith(action: String, provider: String, secondFactor: String?) -> [String: JSON] {
        var fields: [String: JSON] = ["action": .string(action), "authProvider": .string(provider)]
        if let secondFactor { fields["secondFactor"] = .string(secondFactor) }
        return fields
    }
}
