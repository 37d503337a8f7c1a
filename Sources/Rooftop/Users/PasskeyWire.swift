import Foundation
import RooftopCore

/// WebAuthn's JSON forms (Level 3, as the server speaks them): the options the server sends,
/// decoded for the authenticator, and its answers encoded back. Every binary value is base64url
/// without padding.
enum PasskeyWire {
    /// `bytes` as base64url without padding.
    static func encode(_ bytes: Data) -> JSON { .string(Base64URL.encode(Array(bytes))) }

    /// The bytes of base64url `text` (RooftopCore's strict decoding: the server never pads).
    static func decode(_ text: String) -> Data? { Base64URL.decode(text).map { Data($0) } }

    /// `value` decoded as base64url bytes, or the SDK's refusal naming `what`.
    static func bytes(_ value: JSON?, _ what: String) throws(RTError) -> Data {
        guard let text = value?.stringValue, let bytes = decode(text) else {
            throw RTError(.invalidJSON, "The server's passkey options have no valid \(what).")
        }
        return bytes
    }

    /// The ids in a list of `PublicKeyCredentialDescriptorJSON` (missing: none).
    static func credentialIDs(_ value: JSON?) throws(RTError) -> [Data] {
        var ids: [Data] = []
        for descriptor in value?.arrayValue ?? [] { ids.append(try bytes(descriptor["id"], "credential id")) }
        return ids
    }

    static func userVerification(_ value: JSON?) -> RTPasskeyUserVerification {
        // WebAuthn's default, and the one to fall back to for a value this SDK does not know.
        value?.stringValue.flatMap(RTPasskeyUserVerification.init(rawValue:)) ?? .preferred
    }

    static func timeout(_ value: JSON?) -> Duration? {
        guard let milliseconds = value?.numberValue, milliseconds > 0, milliseconds < 86_400_000 else { return nil }
        return .milliseconds(Int64(milliseconds))
    }

    /// `PublicKeyCredentialJSON`'s common frame around `response`.
    static func credential(id: Data, response: [String: JSON], attachment: String) -> JSON {
        [
            "id": encode(id), "rawId": encode(id), "type": "public-key", "response": .object(response), "clientExtensionResults": [:],
            "authenticatorAttachment": .string(attachment),
        ]
    }
}

extension RTPasskeyCreationRequest {
    /// Decodes `PublicKeyCredentialCreationOptionsJSON`.
    init(options: JSON) throws(RTError) {
        guard let rpID = options["rp"]?["id"]?.stringValue, let userName = options["user"]?["name"]?.stringValue else {
            throw RTError(.invalidJSON, "The server's passkey options have no relying party or user.")
        }
        self.init(
            challenge: try PasskeyWire.bytes(options["challenge"], "challenge"), relyingPartyID: rpID,
            relyingPartyName: options["rp"]?["name"]?.stringValue ?? rpID, userID: try PasskeyWire.bytes(options["user"]?["id"], "user id"),
            userName: userName, userDisplayName: options["user"]?["displayName"]?.stringValue ?? userName,
            excludedCredentialIDs: try PasskeyWire.credentialIDs(options["excludeCredentials"]),
            userVerification: PasskeyWire.userVerification(options["authenticatorSelection"]?["userVerification"]),
            timeout: PasskeyWire.timeout(options["timeout"]))
    }
}

extension RTPasskeyAssertionRequest {
    /// Decodes `PublicKeyCredentialRequestOptionsJSON`.
    init(options: JSON) throws(RTError) {
        guard let rpID = options["rpId"]?.stringValue else { throw RTError(.invalidJSON, "The server's passkey options have no rpId.") }
        self.init(
            challenge: try PasskeyWire.bytes(options["challenge"], "challenge"), relyingPartyID: rpID,
            allowedCredentialIDs: try PasskeyWire.credentialIDs(options["allowCredentials"]),
            userVerification: PasskeyWire.userVerification(options["userVerification"]), timeout: PasskeyWire.timeout(options["timeout"]))
    }
}

extension RTPasskeyCredentialRegistration {
    /// `RegistrationResponseJSON`.
    var json: JSON {
        let response: [String: JSON] = [
            "clientDataJSON": PasskeyWire.encode(clientDataJSON), "attestationObject": PasskeyWire.encode(attestationObject),
            "transports": .array(transports.map(JSON.string)),
        ]
        // A passkey reached over `internal` lives on this device; any other is a roaming one.
        return PasskeyWire.credential(
            id: credentialID, response: response, attachment: transports.contains("internal") ? "platform" : "cross-platform")
    }
}

extension RTPasskeyCredentialAssertion {
    /// `AuthenticationResponseJSON`.
    var json: JSON {
        let response: [String: JSON] = [
            "clientDataJSON": PasskeyWire.encode(clientDataJSON), "authenticatorData": PasskeyWire.encode(authenticatorData),
            "signature": PasskeyWire.encode(signature), "userHandle": userHandle.map(PasskeyWire.encode) ?? .null,
        ]
        // The agreed wire always carries an attachment; the server does not verify it.
        return PasskeyWire.credential(id: credentialID, response: response, attachment: "platform")
    }
}
