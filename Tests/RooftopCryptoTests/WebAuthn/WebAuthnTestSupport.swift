import RooftopCore
import RooftopCrypto
import RooftopServices
import RooftopTesting
import Testing

/// What the WebAuthn tests share: one RP, its origin, and ceremonies over a software passkey.
enum WebAuthnFixture {
    static let rpId = "localhost"
    static let origin = "http://localhost:1337"
    static let verifier = WebAuthnVerifier()

    static func challenge(_ seed: UInt8) -> [UInt8] { (0..<32).map { UInt8(truncatingIfNeeded: Int($0) &* 31 &+ Int(seed)) } }

    static func ceremony(_ challenge: [UInt8], requiresUV: Bool = true, origins: [String] = [origin]) -> PasskeyCeremony {
        PasskeyCeremony(relyingPartyId: rpId, origins: origins, challenge: challenge, requiresUserVerification: requiresUV)
    }

    static func passkey(_ algorithm: SoftwarePasskey.Algorithm = .es256) -> SoftwarePasskey {
        SoftwarePasskey(algorithm: algorithm, rpId: rpId, origin: origin)
    }

    static func input(_ registration: SoftwarePasskey.Registration) -> PasskeyRegistrationInput {
        PasskeyRegistrationInput(clientDataJSON: registration.clientDataJSON, attestationObject: registration.attestationObject)
    }

    static func input(_ assertion: SoftwarePasskey.Assertion) -> PasskeyAssertionInput {
        PasskeyAssertionInput(
            clientDataJSON: assertion.clientDataJSON, authenticatorData: assertion.authenticatorData, signature: assertion.signature)
    }

    /// A passkey registered through the verifier, with what the verifier stored.
    static func registered(_ algorithm: SoftwarePasskey.Algorithm = .es256) throws -> (SoftwarePasskey, NewPasskey) {
        var key = passkey(algorithm)
        let registration = key.register(challenge: challenge(1), userHandle: [1, 2, 3])
        let stored = try verifier.register(input(registration), ceremony: ceremony(challenge(1)))
        return (key, stored)
    }

    /// The authenticator data inside a registration's attestation object.
    static func authenticatorData(of registration: SoftwarePasskey.Registration) throws -> [UInt8] {
        try AttestationObject.parse(registration.attestationObject).authenticatorData
    }

    /// A `none` attestation object around `authData`.
    static func attestationObject(_ authData: [UInt8]) -> [UInt8] {
        CBORWriter.encode(
            CBORWriter.map([
                (.textString("fmt"), .textString("none")), (.textString("attStmt"), CBORWriter.map([])),
                (.textString("authData"), .byteString(authData)),
            ]))
    }

    /// Client data with these members, in this order (for hostile variants).
    static func clientData(_ members: String) -> [UInt8] { Array("{\(members)}".utf8) }

    /// The reason `body` was refused, nil when it was accepted.
    static func reason<T>(_ body: () throws(PasskeyRefusal) -> T) -> PasskeyRefusal.Reason? {
        do {
            _ = try body()
            return nil
        } catch {
            return error.reason
        }
    }

    /// The reason a registration of `authData` (with a valid client data) was refused.
    static func registrationReason(authData: [UInt8], requiresUV: Bool = true) -> PasskeyRefusal.Reason? {
        var key = passkey()
        let registration = key.register(challenge: challenge(1), userHandle: [1])
        let input = PasskeyRegistrationInput(clientDataJSON: registration.clientDataJSON, attestationObject: attestationObject(authData))
        return reason { () throws(PasskeyRefusal) in try verifier.register(input, ceremony: ceremony(challenge(1), requiresUV: requiresUV)) }
    }
}
