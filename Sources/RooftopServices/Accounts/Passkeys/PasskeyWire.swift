import RooftopCore

/// The WebAuthn L3 JSON a client sends (`RegistrationResponseJSON`, `AuthenticationResponseJSON`)
/// read into bytes: every member typed and bounded before any of it is decoded, so an operator
/// where a string belongs, a huge value or a NUL is refused (107) before the verifier sees it.
package enum PasskeyWire {
    /// Transports a client may report (WebAuthn L3 `AuthenticatorTransport`).
    static let transports: Set<String> = ["usb", "nfc", "ble", "smart-card", "hybrid", "internal"]

    /// A registration response.
    struct Registration {
        var credentialId: [UInt8]
        var input: PasskeyRegistrationInput
        var transports: [String]
    }

    /// A sign-in response.
    struct Assertion {
        var credentialId: [UInt8]
        var input: PasskeyAssertionInput
        var userHandle: [UInt8]?
    }

    /// `body.credential` as a registration response.
    static func registration(_ body: [String: JSON]) throws(ParseError) -> Registration {
        let (id, response) = try credential(body["credential"])
        guard case .string(let attestation)? = response["attestationObject"] else { throw malformed("response.attestationObject") }
        var transports: [String] = []
        if let listed = response["transports"], listed != .null {
            guard case .array(let items) = listed, items.count <= 8 else { throw malformed("response.transports") }
            transports = items.compactMap(\.stringValue).filter(Self.transports.contains)
        }
        return Registration(
            credentialId: id,
            input: PasskeyRegistrationInput(
                clientDataJSON: try bytes(response["clientDataJSON"], "response.clientDataJSON", max: 4096),
                attestationObject: try bytes(.string(attestation), "response.attestationObject", max: 65_536)),
            transports: Array(Set(transports)).sorted())
    }

    /// `json` (a request's `credential`, or `authData.mfa.passkey`) as a sign-in response.
    static func assertion(_ json: JSON?) throws(ParseError) -> Assertion {
        let (id, response) = try credential(json)
        var userHandle: [UInt8]?
        if let handle = response["userHandle"], handle != .null { userHandle = try bytes(handle, "response.userHandle", max: 64) }
        return Assertion(
            credentialId: id,
            input: PasskeyAssertionInput(
                clientDataJSON: try bytes(response["clientDataJSON"], "response.clientDataJSON", max: 4096),
                authenticatorData: try bytes(response["authenticatorData"], "response.authenticatorData", max: 8192),
                signature: try bytes(response["signature"], "response.signature", max: 1024)),
            userHandle: userHandle)
    }

    /// The credential's id (`id`, which `rawId` must equal when sent) and its `response`.
    private static func credential(_ json: JSON?) throws(ParseError) -> ([UInt8], [String: JSON]) {
        guard case .object(let credential)? = json else { throw malformed("credential") }
        guard credential["type"] == .string("public-key") else { throw malformed("credential.type") }
        let id = try bytes(credential["id"], "credential.id", max: 1023)
        if let raw = credential["rawId"], raw != credential["id"] { throw malformed("credential.rawId") }
        guard !id.isEmpty else { throw malformed("credential.id") }
        guard case .object(let response)? = credential["response"] else { throw malformed("credential.response") }
        return (id, response)
    }

    /// A base64url member of at most `max` bytes.
    private static func bytes(_ json: JSON?, _ name: String, max: Int) throws(ParseError) -> [UInt8] {
        guard case .string(let text)? = json, text.utf8.count <= (max * 4 + 2) / 3, let bytes = Base64URL.decode(text) else {
            throw malformed(name)
        }
        return bytes
    }

    private static func malformed(_ name: String) -> ParseError {
        ParseError(.invalidJSON, "\(name) is missing or not what WebAuthn sends (base64url strings, without padding).")
    }

    /// A credential descriptor of the options (`excludeCredentials`, `allowCredentials`).
    static func descriptor(_ passkey: StoredPasskey) -> JSON {
        var fields: [String: JSON] = ["type": "public-key", "id": .string(passkey.id)]
        if !passkey.transports.isEmpty { fields["transports"] = .array(passkey.transports.map(JSON.string)) }
        return .object(fields)
    }

    /// Whether `text` can name a stored credential: base64url as this server writes it, of 1 to
    /// 1023 bytes (WebAuthn's bound). Paths carrying anything else are refused before any read.
    package static func isCredentialId(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 1364 && Base64URL.decode(text) != nil
    }

    /// The user handle of `userId`: its object id's bytes (opaque, never an email or a name).
    static func userHandle(_ userId: String) -> [UInt8] { Array(userId.utf8) }
}
