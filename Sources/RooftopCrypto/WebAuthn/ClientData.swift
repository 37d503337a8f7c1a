import RooftopCore
package import RooftopServices

// The client data (WebAuthn L3 §5.8.1): JSON the browser (or the platform, for a native app)
// wrote and the authenticator signed the hash of. Parsed as JSON, never matched as a template:
// clients add members (`androidPackageName`, Chrome's `other_keys_can_be_added_here`).

/// The members of client data the relying party checks.
package struct ClientData: Sendable, Equatable {
    /// `webauthn.create` or `webauthn.get`.
    package var type: String
    /// The challenge, base64url-decoded.
    package var challenge: [UInt8]
    /// The origin the client vouches for (`https://example.com`, `android:apk-key-hash:…`).
    package var origin: String
    /// `crossOrigin`, false when absent.
    package var crossOrigin: Bool
    /// Whether `topOrigin` was present (the ceremony ran in a cross-origin iframe).
    package var hasTopOrigin: Bool

    /// The largest client data read: real ones are a few hundred bytes (a type, a 43-character
    /// challenge, an origin), and the JSON parser is only handed bounded input.
    package static let maximumSize = 4096

    /// Parses `bytes`; only the shape is checked here (a JSON object whose members have the right
    /// types and a challenge in strict base64url), the values by `check`.
    package static func parse(_ bytes: [UInt8]) throws(PasskeyRefusal) -> ClientData {
        guard bytes.count <= maximumSize else { throw PasskeyRefusal(.malformed, "client data over \(maximumSize) bytes") }
        let json: JSON
        do {
            json = try JSONParser.parse(bytes, maxDepth: 8)
        } catch {
            throw PasskeyRefusal(.malformed, "client data is not JSON")
        }
        guard json.objectValue != nil else { throw PasskeyRefusal(.malformed, "client data is not an object") }
        guard let type = json["type"]?.stringValue, let origin = json["origin"]?.stringValue,
            let encodedChallenge = json["challenge"]?.stringValue
        else { throw PasskeyRefusal(.malformed, "client data lacks type, challenge or origin") }
        guard let challenge = Base64URL.decode(encodedChallenge) else {
            throw PasskeyRefusal(.malformed, "client data challenge is not strict base64url")
        }
        var crossOrigin = false
        if let member = json["crossOrigin"] {
            guard let value = member.boolValue else { throw PasskeyRefusal(.malformed, "crossOrigin is not a boolean") }
            crossOrigin = value
        }
        return ClientData(type: type, challenge: challenge, origin: origin, crossOrigin: crossOrigin, hasTopOrigin: json["topOrigin"] != nil)
    }

    /// Checks the values against the ceremony: the type, the challenge (in constant time, as it
    /// is a secret until used), an exactly allowed origin, and a same-origin request.
    package func check(type expectedType: String, ceremony: PasskeyCeremony) throws(PasskeyRefusal) {
        guard type == expectedType else { throw PasskeyRefusal(.wrongType, "client data type is not \(expectedType)") }
        guard ConstantTime.equals(challenge, ceremony.challenge) else { throw PasskeyRefusal(.wrongChallenge, "not the challenge issued") }
        guard ceremony.origins.contains(origin) else { throw PasskeyRefusal(.wrongOrigin, "origin not allowed") }
        // Passkeys are only offered to the application's own pages, never inside another site's frame.
        guard !crossOrigin, !hasTopOrigin else { throw PasskeyRefusal(.wrongOrigin, "cross-origin request") }
    }
}
