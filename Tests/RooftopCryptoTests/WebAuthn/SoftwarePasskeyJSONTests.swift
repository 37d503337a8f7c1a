import RooftopCore
import RooftopCrypto
import RooftopServices
import RooftopTesting
import Testing

// The software passkey over the wire's JSON (/tmp/passkey-wire.md): it answers the server's
// creation and request options, and what it answers decodes into what the verifier accepts.

private typealias F = WebAuthnFixture

@Suite struct SoftwarePasskeyJSONTests {
    func bytes(_ json: JSON?) throws -> [UInt8] { try #require(json?.stringValue.flatMap(Base64URL.decode)) }

    @Test func answersOptionsLikeABrowser() throws {
        var key = F.passkey(.eddsa)
        let creation: JSON = [
            "rp": ["id": "localhost", "name": "Rooftop"],
            "user": ["id": .string(Base64URL.encode([4, 2])), "name": "alice", "displayName": "alice"],
            "challenge": .string(Base64URL.encode(F.challenge(5))),
            "pubKeyCredParams": [["type": "public-key", "alg": -7], ["type": "public-key", "alg": -8], ["type": "public-key", "alg": -257]],
            "excludeCredentials": [], "attestation": "none",
        ]
        let registration = try key.respond(toCreationOptions: creation)
        #expect(registration["id"] == registration["rawId"] && registration["type"] == "public-key")
        #expect(try bytes(registration["id"]) == key.credentialId && key.userHandle == [4, 2])
        let response = try #require(registration["response"])
        let stored = try F.verifier.register(
            PasskeyRegistrationInput(clientDataJSON: bytes(response["clientDataJSON"]), attestationObject: bytes(response["attestationObject"])),
            ceremony: F.ceremony(F.challenge(5)))
        #expect(stored.algorithm == -8)

        let request: JSON = [
            "challenge": .string(Base64URL.encode(F.challenge(6))), "rpId": "localhost", "userVerification": "required",
            "allowCredentials": [["type": "public-key", "id": .string(Base64URL.encode(key.credentialId))]],
        ]
        let assertion = try #require(try key.respond(toRequestOptions: request)["response"])
        #expect(try bytes(assertion["userHandle"]) == [4, 2])
        let input = try PasskeyAssertionInput(
            clientDataJSON: bytes(assertion["clientDataJSON"]), authenticatorData: bytes(assertion["authenticatorData"]),
            signature: bytes(assertion["signature"]))
        #expect(try F.verifier.assert(input, publicKey: stored.publicKey, ceremony: F.ceremony(F.challenge(6))).userVerified)

        // What a browser declines: its credential excluded, another RP, another credential asked for.
        var excluded = creation.objectValue ?? [:]
        excluded["excludeCredentials"] = [["type": "public-key", "id": .string(Base64URL.encode(key.credentialId))]]
        #expect(throws: SoftwarePasskey.Declined.self) { try key.respond(toCreationOptions: .object(excluded)) }
        var otherRP = request.objectValue ?? [:]
        otherRP["rpId"] = "example.com"
        #expect(throws: SoftwarePasskey.Declined.self) { try key.respond(toRequestOptions: .object(otherRP)) }
        var otherCredential = request.objectValue ?? [:]
        otherCredential["allowCredentials"] = [["type": "public-key", "id": "AAAA"]]
        #expect(throws: SoftwarePasskey.Declined.self) { try key.respond(toRequestOptions: .object(otherCredential)) }
        // Usernameless: an empty list allows any credential; no user handle before registering is null.
        otherCredential["allowCredentials"] = []
        #expect(try key.respond(toRequestOptions: .object(otherCredential))["response"]?["signature"] != nil)
        var fresh = F.passkey()
        #expect(try fresh.respond(toRequestOptions: .object(otherCredential))["response"]?["userHandle"] == .null)
    }
}
