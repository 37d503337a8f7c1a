import Crypto
import Foundation
import RooftopCore
package import RooftopServices

/// The relying party's checks of WebAuthn registrations and sign-ins (`PasskeyVerifying`), over
/// the untrusted bytes a client sent: client data, authenticator data, the attestation object and
/// COSE keys, each parsed strictly before any of it is believed. Stateless: the challenges, the
/// stored credentials and the counter's comparison belong to the use cases.
package struct WebAuthnVerifier: PasskeyVerifying {
    /// A verifier.
    package init() {}

    /// The challenge the client data carries, base64url-decoded; nil when the bytes are not
    /// client data with a non-empty challenge.
    package func challenge(inClientData clientDataJSON: [UInt8]) -> [UInt8]? {
        guard let challenge = try? ClientData.parse(clientDataJSON).challenge, !challenge.isEmpty else { return nil }
        return challenge
    }

    /// Checks a registration (WebAuthn L3 §7.1, attestation read as `none`).
    package func register(_ input: PasskeyRegistrationInput, ceremony: PasskeyCeremony) throws(PasskeyRefusal) -> NewPasskey {
        try ClientData.parse(input.clientDataJSON).check(type: "webauthn.create", ceremony: ceremony)
        let attestation = try refusal { () throws(WebAuthnFormatError) in try AttestationObject.parse(input.attestationObject) }
        let data = try refusal { () throws(WebAuthnFormatError) in
            try AuthenticatorData.parse(attestation.authenticatorData, for: .registration)
        }
        try checkScopeAndUser(data, ceremony: ceremony)
        guard let credential = data.attestedCredential else { throw PasskeyRefusal(.inconsistentFlags, "registration without AT") }
        let key = try COSEKey(credential.publicKey)
        return NewPasskey(
            credentialId: credential.credentialId, publicKey: credential.publicKeyBytes, algorithm: key.algorithm.rawValue,
            signCount: data.signCount, userVerified: data.flags.userVerified, backupEligible: data.flags.backupEligible,
            backedUp: data.flags.backedUp, format: attestation.format, aaguid: credential.aaguid)
    }

    /// Checks a sign-in (WebAuthn L3 §7.2): the client data, the authenticator data, then the
    /// signature over `authenticatorData ‖ SHA-256(clientDataJSON)` under the stored key.
    package func assert(_ input: PasskeyAssertionInput, publicKey: [UInt8], ceremony: PasskeyCeremony) throws(PasskeyRefusal)
        -> CheckedAssertion
    {
        try ClientData.parse(input.clientDataJSON).check(type: "webauthn.get", ceremony: ceremony)
        let data = try refusal { () throws(WebAuthnFormatError) in try AuthenticatorData.parse(input.authenticatorData, for: .assertion) }
        try checkScopeAndUser(data, ceremony: ceremony)
        let key = try COSEKey(bytes: publicKey)
        let signed = input.authenticatorData + Array(SHA256.hash(data: input.clientDataJSON))
        guard key.isValidSignature(input.signature, for: signed) else { throw PasskeyRefusal(.badSignature, "signature does not verify") }
        return CheckedAssertion(
            signCount: data.signCount, userVerified: data.flags.userVerified, backupEligible: data.flags.backupEligible,
            backedUp: data.flags.backedUp)
    }

    /// The checks both ceremonies share: the credential is scoped to this RP ID, and a user was
    /// present (and verified, when the ceremony requires it).
    private func checkScopeAndUser(_ data: AuthenticatorData, ceremony: PasskeyCeremony) throws(PasskeyRefusal) {
        let expected = Array(SHA256.hash(data: Array(ceremony.relyingPartyId.utf8)))
        guard ConstantTime.equals(data.rpIdHash, expected) else { throw PasskeyRefusal(.wrongRelyingParty, "RP ID hash") }
        guard data.flags.userPresent else { throw PasskeyRefusal(.userNotPresent, "UP not set") }
        guard data.flags.userVerified || !ceremony.requiresUserVerification else {
            throw PasskeyRefusal(.userNotVerified, "UV not set")
        }
    }

    private func refusal<T>(_ body: () throws(WebAuthnFormatError) -> T) throws(PasskeyRefusal) -> T {
        do {
            return try body()
        } catch {
            switch error.kind {
            case .malformed: throw PasskeyRefusal(.malformed, error.detail)
            case .inconsistentFlags: throw PasskeyRefusal(.inconsistentFlags, error.detail)
            }
        }
    }
}
