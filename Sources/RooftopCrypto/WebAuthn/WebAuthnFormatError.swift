// WebAuthn's binary structures (authenticator data, the attestation object) are parsed without
// importing anything but the CBOR decoder, so that ./scripts/fuzz-cbor can compile them into its
// libFuzzer harness on their own; the verifier translates this error into a `PasskeyRefusal`.

/// Why authenticator data or an attestation object was refused, before any check of its meaning.
package struct WebAuthnFormatError: Error, Sendable, Equatable {
    /// The two refusals the verifier tells apart in its audit reasons.
    package enum Kind: Sendable, Equatable {
        /// Truncated, oversized, or CBOR outside the subset.
        case malformed
        /// The flags disagree with the bytes (BS without BE, AT or ED against what follows, bytes left over).
        case inconsistentFlags
    }

    /// Which refusal.
    package var kind: Kind
    /// A short detail for the log.
    package var detail: String

    /// A refusal.
    package init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }
}

extension CBORDecoder.Limits {
    /// The limits for everything a WebAuthn client sends: the defaults (far above any real
    /// attestation object, whose attestation certificates are a few KiB), but map keys in any
    /// order. Clients have shipped non-canonical attestation objects (Firefox's authenticator-rs
    /// wrote `authData, fmt, attStmt` until early 2023, Brave on iOS in 2019), and SimpleWebAuthn
    /// and python-fido2 accept them. Order carries no meaning here: duplicate keys stay refused,
    /// so a map still decodes to exactly one value; the signature covers the authenticator
    /// data's raw bytes, never a re-encoding; and the COSE key is stored as the bytes sent.
    package static let webAuthn = CBORDecoder.Limits(requiresSortedMapKeys: false)
}
