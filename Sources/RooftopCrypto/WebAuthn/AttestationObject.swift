// The attestation object (WebAuthn L3 §6.5): a CBOR map of the format, its statement and the
// authenticator data. Attestation is not verified (every format is read as `none`), so the
// statement is decoded (it must be well-formed CBOR) and then ignored.

/// A decoded attestation object.
package struct AttestationObject: Sendable, Equatable {
    /// The attestation format the client named (`none`, `packed`, `apple`, …).
    package var format: String
    /// The authenticator data, still to be parsed (`AuthenticatorData.parse`).
    package var authenticatorData: [UInt8]

    /// The longest format identifier accepted (the registered ones are at most 17 characters).
    package static let maximumFormatLength = 64

    /// Decodes `bytes`: a map of exactly `fmt` (text), `attStmt` (map) and `authData` (bytes), in
    /// any order (see `CBORDecoder.Limits.webAuthn`), nothing after it.
    package static func parse(_ bytes: [UInt8]) throws(WebAuthnFormatError) -> AttestationObject {
        let value: CBORValue
        do {
            value = try CBORDecoder.decode(bytes, limits: .webAuthn)
        } catch {
            throw WebAuthnFormatError(.malformed, "attestation object: \(error)")
        }
        guard let entries = value.map else { throw WebAuthnFormatError(.malformed, "attestation object is not a map") }
        var format: String?
        var statement: [CBORMapEntry]?
        var authenticatorData: [UInt8]?
        for entry in entries {
            switch entry.key.text {
            case "fmt": format = entry.value.text
            case "attStmt": statement = entry.value.map
            case "authData": authenticatorData = entry.value.bytes
            default: throw WebAuthnFormatError(.malformed, "attestation object has an unknown key")
            }
        }
        guard let format, statement != nil, let authenticatorData else {
            throw WebAuthnFormatError(.malformed, "attestation object lacks fmt, attStmt or authData of the right type")
        }
        // Registered format identifiers are short ASCII words; the format is stored beside the key.
        guard (1...maximumFormatLength).contains(format.utf8.count), format.utf8.allSatisfy({ (0x21...0x7e).contains($0) }) else {
            throw WebAuthnFormatError(.malformed, "attestation format is not a short identifier")
        }
        return AttestationObject(format: format, authenticatorData: authenticatorData)
    }
}
