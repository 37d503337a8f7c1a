// Authenticator data (WebAuthn L3 §6.1): the bytes an authenticator signs. Parsed strictly,
// every length checked against the bytes present before it is used.

/// The flags byte of authenticator data.
package struct AuthenticatorFlags: Sendable, Equatable {
    /// The raw byte.
    package var rawValue: UInt8

    /// The flags in `rawValue`.
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// UP: a user was present.
    package var userPresent: Bool { rawValue & 0x01 != 0 }
    /// UV: the user was verified (biometrics, PIN).
    package var userVerified: Bool { rawValue & 0x04 != 0 }
    /// BE: the credential may be backed up (synced).
    package var backupEligible: Bool { rawValue & 0x08 != 0 }
    /// BS: the credential is backed up now.
    package var backedUp: Bool { rawValue & 0x10 != 0 }
    /// AT: attested credential data follows the counter.
    package var attestedCredentialData: Bool { rawValue & 0x40 != 0 }
    /// ED: an extensions map ends the data.
    package var extensionData: Bool { rawValue & 0x80 != 0 }
}

/// The credential a registration's authenticator data carries.
package struct AttestedCredentialData: Sendable, Equatable {
    /// The authenticator model's AAGUID (16 bytes).
    package var aaguid: [UInt8]
    /// The credential ID (1–1023 bytes).
    package var credentialId: [UInt8]
    /// The COSE key exactly as encoded (what is stored, and decoded again at each sign-in).
    package var publicKeyBytes: [UInt8]
    /// The same key, decoded.
    package var publicKey: CBORValue
}

/// Parsed authenticator data.
package struct AuthenticatorData: Sendable, Equatable {
    /// Whether attested credential data must be there: a registration needs it, a sign-in must
    /// not carry it (a sign-in that did would be asking to be read as a registration).
    package enum Ceremony: Sendable {
        /// A registration: AT must be set.
        case registration
        /// A sign-in: AT must be clear.
        case assertion
    }

    /// SHA-256 of the RP ID the authenticator scoped the credential to.
    package var rpIdHash: [UInt8]
    /// The flags.
    package var flags: AuthenticatorFlags
    /// The signature counter (0 when the authenticator keeps none).
    package var signCount: UInt32
    /// The credential, on registration.
    package var attestedCredential: AttestedCredentialData?
    /// The authenticator extension outputs, when ED is set.
    package var extensions: CBORValue?

    /// The shortest authenticator data: RP ID hash, flags and counter.
    package static let minimumLength = 37
    /// The longest credential ID WebAuthn allows.
    package static let maximumCredentialIdLength = 1023

    /// Parses `bytes` for `ceremony`; every flag must agree with what follows and nothing may be
    /// left over, so one byte string has exactly one reading.
    package static func parse(_ bytes: [UInt8], for ceremony: Ceremony) throws(WebAuthnFormatError) -> AuthenticatorData {
        guard bytes.count >= minimumLength else { throw WebAuthnFormatError(.malformed, "authenticator data shorter than 37 bytes") }
        let flags = AuthenticatorFlags(rawValue: bytes[32])
        guard flags.backupEligible || !flags.backedUp else { throw WebAuthnFormatError(.inconsistentFlags, "BS without BE") }
        switch ceremony {
        case .registration:
            guard flags.attestedCredentialData else { throw WebAuthnFormatError(.inconsistentFlags, "registration without AT") }
        case .assertion:
            guard !flags.attestedCredentialData else { throw WebAuthnFormatError(.inconsistentFlags, "sign-in with AT") }
        }
        let signCount = bytes[33..<37].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        var index = minimumLength
        var attested: AttestedCredentialData?
        if flags.attestedCredentialData {
            attested = try parseAttestedCredential(bytes, at: &index)
        }
        var extensions: CBORValue?
        if flags.extensionData {
            guard index < bytes.count else { throw WebAuthnFormatError(.inconsistentFlags, "ED without extensions") }
            let decoded: (value: CBORValue, consumed: Int)
            do {
                decoded = try CBORDecoder.decodePrefix(bytes[index...], limits: .webAuthn)
            } catch {
                throw WebAuthnFormatError(.malformed, "extensions: \(error)")
            }
            guard decoded.value.map != nil else { throw WebAuthnFormatError(.malformed, "extensions are not a map") }
            extensions = decoded.value
            index += decoded.consumed
        }
        guard index == bytes.count else { throw WebAuthnFormatError(.inconsistentFlags, "\(bytes.count - index) bytes left over") }
        return AuthenticatorData(
            rpIdHash: Array(bytes[0..<32]), flags: flags, signCount: signCount, attestedCredential: attested, extensions: extensions)
    }

    private static func parseAttestedCredential(_ bytes: [UInt8], at index: inout Int) throws(WebAuthnFormatError) -> AttestedCredentialData {
        // AAGUID (16) and the credential ID's length (2) before anything variable.
        guard bytes.count - index >= 18 else { throw WebAuthnFormatError(.malformed, "attested credential data truncated") }
        let aaguid = Array(bytes[index..<index + 16])
        let idLength = Int(bytes[index + 16]) << 8 | Int(bytes[index + 17])
        index += 18
        guard (1...maximumCredentialIdLength).contains(idLength) else {
            throw WebAuthnFormatError(.malformed, "credential ID length \(idLength)")
        }
        guard bytes.count - index >= idLength else { throw WebAuthnFormatError(.malformed, "credential ID beyond the data") }
        let credentialId = Array(bytes[index..<index + idLength])
        index += idLength
        // The key has no length prefix: the CBOR item's own length ends it.
        let key: (value: CBORValue, consumed: Int)
        do {
            key = try CBORDecoder.decodePrefix(bytes[index...], limits: .webAuthn)
        } catch {
            throw WebAuthnFormatError(.malformed, "credential public key: \(error)")
        }
        guard key.value.map != nil else { throw WebAuthnFormatError(.malformed, "credential public key is not a map") }
        let keyBytes = Array(bytes[index..<index + key.consumed])
        index += key.consumed
        return AttestedCredentialData(aaguid: aaguid, credentialId: credentialId, publicKeyBytes: keyBytes, publicKey: key.value)
    }
}
