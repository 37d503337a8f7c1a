/// What the passkey use cases need from the crypto target: WebAuthn's relying-party checks of a
/// registration (an attestation) and of a sign-in (an assertion), over the untrusted bytes a
/// client sent. The use cases keep the challenges, the stored credentials and the policy; the
/// verifier keeps CBOR, COSE and signatures.
package protocol PasskeyVerifying: Sendable {
    /// The challenge `clientDataJSON` carries (its `challenge`, base64url-decoded), read before
    /// anything is verified so that the challenge's record can be taken; nil when the bytes are
    /// not client data with a challenge.
    func challenge(inClientData clientDataJSON: [UInt8]) -> [UInt8]?

    /// Checks a registration (WebAuthn L3 §7.1): client data type `webauthn.create`, the
    /// challenge, an allowed origin, the RP ID hash, user presence (and verification when the
    /// ceremony requires it), attested credential data with a supported COSE key (ES256, EdDSA,
    /// RS256). Attestation statements are not verified (any format is read as `none`).
    func register(_ input: PasskeyRegistrationInput, ceremony: PasskeyCeremony) throws(PasskeyRefusal) -> NewPasskey

    /// Checks a sign-in (WebAuthn L3 §7.2): client data type `webauthn.get`, the challenge, an
    /// allowed origin, the RP ID hash, the flags, and the signature over the authenticator data
    /// and the client data's hash under `publicKey` (a COSE key as `register` returned it).
    func assert(_ input: PasskeyAssertionInput, publicKey: [UInt8], ceremony: PasskeyCeremony) throws(PasskeyRefusal) -> CheckedAssertion
}

/// What a ceremony must match: the relying party's ID, the origins allowed to speak for it, the
/// challenge issued, and whether user verification is required.
package struct PasskeyCeremony: Sendable, Equatable {
    /// The RP ID (a registrable domain, `example.com`); its SHA-256 must open the authenticator data.
    package var relyingPartyId: String
    /// The exact origins accepted (`https://example.com`, `android:apk-key-hash:…`).
    package var origins: [String]
    /// The challenge that was issued (raw bytes).
    package var challenge: [UInt8]
    /// Whether the UV flag must be set.
    package var requiresUserVerification: Bool

    /// A ceremony.
    package init(relyingPartyId: String, origins: [String], challenge: [UInt8], requiresUserVerification: Bool) {
        self.relyingPartyId = relyingPartyId
        self.origins = origins
        self.challenge = challenge
        self.requiresUserVerification = requiresUserVerification
    }
}

/// A registration's response as the client sent it (`response.clientDataJSON` and
/// `response.attestationObject`, base64url-decoded).
package struct PasskeyRegistrationInput: Sendable {
    /// The client data, exactly as the authenticator's client serialized it.
    package var clientDataJSON: [UInt8]
    /// The CBOR attestation object (`fmt`, `attStmt`, `authData`).
    package var attestationObject: [UInt8]

    /// The input.
    package init(clientDataJSON: [UInt8], attestationObject: [UInt8]) {
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
    }
}

/// A sign-in's response as the client sent it (base64url-decoded).
package struct PasskeyAssertionInput: Sendable {
    /// The client data, exactly as serialized.
    package var clientDataJSON: [UInt8]
    /// The authenticator data that was signed.
    package var authenticatorData: [UInt8]
    /// The signature over `authenticatorData ‖ SHA-256(clientDataJSON)`.
    package var signature: [UInt8]

    /// The input.
    package init(clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8]) {
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
    }
}

/// A credential a registration proved, ready to store.
package struct NewPasskey: Sendable, Equatable {
    /// The credential ID (1–1023 bytes).
    package var credentialId: [UInt8]
    /// The COSE public key, as the authenticator encoded it (what `assert` takes back).
    package var publicKey: [UInt8]
    /// Its COSE algorithm (-7 ES256, -8 EdDSA, -257 RS256).
    package var algorithm: Int
    /// The signature counter at registration.
    package var signCount: UInt32
    /// Whether the UV flag was set.
    package var userVerified: Bool
    /// The BE flag: the credential may be synced (a "multi-device" passkey).
    package var backupEligible: Bool
    /// The BS flag: the credential is backed up now.
    package var backedUp: Bool
    /// The attestation format the authenticator named (`none`, `packed`, …; its statement unread).
    package var format: String
    /// The authenticator's AAGUID (16 bytes; zeros under `none`).
    package var aaguid: [UInt8]

    /// A credential.
    package init(
        credentialId: [UInt8], publicKey: [UInt8], algorithm: Int, signCount: UInt32, userVerified: Bool, backupEligible: Bool,
        backedUp: Bool, format: String, aaguid: [UInt8]
    ) {
        self.credentialId = credentialId
        self.publicKey = publicKey
        self.algorithm = algorithm
        self.signCount = signCount
        self.userVerified = userVerified
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        self.format = format
        self.aaguid = aaguid
    }
}

/// What a verified sign-in's authenticator data said.
package struct CheckedAssertion: Sendable, Equatable {
    /// The signature counter it carried (0 when the authenticator keeps none).
    package var signCount: UInt32
    /// Whether the UV flag was set.
    package var userVerified: Bool
    /// The BE flag.
    package var backupEligible: Bool
    /// The BS flag.
    package var backedUp: Bool

    /// The checked flags and counter.
    package init(signCount: UInt32, userVerified: Bool, backupEligible: Bool, backedUp: Bool) {
        self.signCount = signCount
        self.userVerified = userVerified
        self.backupEligible = backupEligible
        self.backedUp = backedUp
    }
}

/// Why a ceremony was refused: what the audit log records. Clients are told less (a sign-in's
/// answer never says which check failed).
package struct PasskeyRefusal: Error, Sendable, Equatable {
    /// Which check refused it.
    package enum Reason: String, Sendable {
        /// Malformed client data, authenticator data, attestation object or COSE key (bad
        /// base64url, CBOR outside the strict subset, a truncated or oversized field).
        case malformed
        /// `type` is not the ceremony's.
        case wrongType
        /// The challenge is not the one issued.
        case wrongChallenge
        /// The origin is not in the allow-list (or the request was cross-origin).
        case wrongOrigin
        /// The authenticator data's RP ID hash is not SHA-256 of the RP ID.
        case wrongRelyingParty
        /// The UP flag is not set.
        case userNotPresent
        /// The UV flag is not set and the ceremony requires it.
        case userNotVerified
        /// A COSE key of an algorithm or curve not supported, or one that is not a valid point/key.
        case unsupportedKey
        /// The signature does not verify.
        case badSignature
        /// Flags inconsistent with the data (BS without BE, AT missing on registration or
        /// present on sign-in, ED without extensions, or bytes left over).
        case inconsistentFlags
    }

    /// Which check refused it.
    package var reason: Reason
    /// A short detail for the log (never secret material).
    package var detail: String

    /// A refusal.
    package init(_ reason: Reason, _ detail: String = "") {
        self.reason = reason
        self.detail = detail
    }
}

/// What the passkey use cases need from the crypto target: the verifier, and the key that makes a
/// username without passkeys look like one with (its sign-in options carry a stand-in credential
/// id derived from the username, the same on every request and every node).
package struct PasskeyCrypto: Sendable {
    /// WebAuthn's checks.
    package let verifier: any PasskeyVerifying
    /// The key the stand-in credential ids are derived with.
    package let decoys: any KeyedMAC

    /// The parts, made by the crypto target.
    package init(verifier: any PasskeyVerifying, decoys: any KeyedMAC) {
        self.verifier = verifier
        self.decoys = decoys
    }
}
