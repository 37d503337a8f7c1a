package import RooftopCore

// The passkey's answers as the WebAuthn L3 JSON a browser's `toJSON()` gives (the wire of
// /tmp/passkey-wire.md's RegistrationResponseJSON and AuthenticationResponseJSON), and answers
// to the server's options JSON.

extension SoftwarePasskey {
    /// `registration` as RegistrationResponseJSON.
    package static func registrationJSON(_ registration: Registration) -> JSON {
        let id = JSON.string(Base64URL.encode(registration.credentialId))
        return [
            "id": id, "rawId": id, "type": "public-key",
            "response": [
                "clientDataJSON": .string(Base64URL.encode(registration.clientDataJSON)),
                "attestationObject": .string(Base64URL.encode(registration.attestationObject)), "transports": ["internal"],
            ],
            "clientExtensionResults": [:], "authenticatorAttachment": "platform",
        ]
    }

    /// `assertion` as AuthenticationResponseJSON.
    package static func assertionJSON(_ assertion: Assertion) -> JSON {
        let id = JSON.string(Base64URL.encode(assertion.credentialId))
        return [
            "id": id, "rawId": id, "type": "public-key",
            "response": [
                "clientDataJSON": .string(Base64URL.encode(assertion.clientDataJSON)),
                "authenticatorData": .string(Base64URL.encode(assertion.authenticatorData)),
                "signature": .string(Base64URL.encode(assertion.signature)),
                "userHandle": assertion.userHandle.map { JSON.string(Base64URL.encode($0)) } ?? JSON.null,
            ],
            "clientExtensionResults": [:], "authenticatorAttachment": "platform",
        ]
    }

    /// Answers PublicKeyCredentialCreationOptionsJSON as a browser would: declines another RP
    /// ID, a list of algorithms without its own, or an `excludeCredentials` naming it.
    package mutating func respond(toCreationOptions options: JSON) throws -> JSON {
        guard let challenge = options["challenge"]?.stringValue.flatMap(Base64URL.decode),
            let userHandle = options["user"]?["id"]?.stringValue.flatMap(Base64URL.decode)
        else { throw Declined(reason: "options without challenge or user.id") }
        if let id = options["rp"]?["id"]?.stringValue, id != rpId { throw Declined(reason: "another RP ID") }
        if let parameters = options["pubKeyCredParams"]?.arrayValue {
            guard parameters.contains(where: { $0["alg"]?.intValue == coseAlgorithm }) else { throw Declined(reason: "algorithm not offered") }
        }
        if Self.ids(options["excludeCredentials"]).contains(credentialId) { throw Declined(reason: "credential excluded") }
        return Self.registrationJSON(register(challenge: challenge, userHandle: userHandle))
    }

    /// Answers PublicKeyCredentialRequestOptionsJSON: declines another RP ID, or an
    /// `allowCredentials` list without its credential.
    package mutating func respond(toRequestOptions options: JSON) throws -> JSON {
        guard let challenge = options["challenge"]?.stringValue.flatMap(Base64URL.decode) else {
            throw Declined(reason: "options without challenge")
        }
        if let id = options["rpId"]?.stringValue, id != rpId { throw Declined(reason: "another RP ID") }
        return Self.assertionJSON(try assert(challenge: challenge, allowCredentials: Self.ids(options["allowCredentials"])))
    }

    private var coseAlgorithm: Int {
        switch algorithm {
        case .es256: -7
        case .eddsa: -8
        case .rs256: -257
        }
    }

    private static func ids(_ descriptors: JSON?) -> [[UInt8]] {
        (descriptors?.arrayValue ?? []).compactMap { $0["id"]?.stringValue.flatMap(Base64URL.decode) }
    }
}
