package import RooftopServices

/// TEMPORARY until the verifier lands: refuses every ceremony.
package struct WebAuthnVerifier: PasskeyVerifying {
    /// The verifier.
    package init() {}

    /// Nothing is read.
    package func challenge(inClientData clientDataJSON: [UInt8]) -> [UInt8]? { nil }

    /// Refuses.
    package func register(_ input: PasskeyRegistrationInput, ceremony: PasskeyCeremony) throws(PasskeyRefusal) -> NewPasskey {
        throw PasskeyRefusal(.malformed)
    }

    /// Refuses.
    package func assert(_ input: PasskeyAssertionInput, publicKey: [UInt8], ceremony: PasskeyCeremony) throws(PasskeyRefusal) -> CheckedAssertion {
        throw PasskeyRefusal(.malformed)
    }
}
