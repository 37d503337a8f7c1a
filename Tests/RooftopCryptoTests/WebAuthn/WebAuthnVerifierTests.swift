import Foundation
import RooftopCore
import RooftopCrypto
import RooftopServices
import RooftopTesting
import Testing

// The verifier over a software passkey: every algorithm registers and signs in, and every
// hostile variant of a ceremony is refused with the check that caught it.

private typealias F = WebAuthnFixture

@Suite struct WebAuthnCeremonyTests {
    static let algorithms: [SoftwarePasskey.Algorithm] = [.es256, .eddsa, .rs256]

    @Test(arguments: algorithms)
    func registersAndSignsIn(_ algorithm: SoftwarePasskey.Algorithm) throws {
        var key = F.passkey(algorithm)
        key.signCount = 41
        let registration = key.register(challenge: F.challenge(1), userHandle: [9, 9])
        #expect(F.verifier.challenge(inClientData: registration.clientDataJSON) == F.challenge(1))
        let stored = try F.verifier.register(F.input(registration), ceremony: F.ceremony(F.challenge(1)))
        #expect(stored.credentialId == key.credentialId)
        #expect(stored.publicKey == key.publicKeyCOSE)
        let expectedAlgorithm = algorithm == .es256 ? -7 : algorithm == .eddsa ? -8 : -257
        #expect(stored.algorithm == expectedAlgorithm)
        #expect(stored.signCount == 41 && stored.userVerified && stored.backupEligible && stored.backedUp)
        #expect(stored.format == "none" && stored.aaguid == [UInt8](repeating: 0, count: 16))

        key.countsSignatures = true
        for round in 0..<2 {
            let assertion = try key.assert(challenge: F.challenge(2), allowCredentials: [[7], key.credentialId])
            #expect(assertion.userHandle == [9, 9])
            let checked = try F.verifier.assert(F.input(assertion), publicKey: stored.publicKey, ceremony: F.ceremony(F.challenge(2)))
            #expect(checked == CheckedAssertion(signCount: UInt32(42 + round), userVerified: true, backupEligible: true, backedUp: true))
        }
        #expect(throws: SoftwarePasskey.Declined.self) { try key.assert(challenge: F.challenge(2), allowCredentials: [[7]]) }
    }

    @Test(arguments: algorithms)
    func badSignatures(_ algorithm: SoftwarePasskey.Algorithm) throws {
        let (registered, stored) = try F.registered(algorithm)
        var key = registered
        let assertion = try key.assert(challenge: F.challenge(2))
        for index in [0, assertion.signature.count / 2, assertion.signature.count - 1] {
            var flipped = F.input(assertion)
            flipped.signature[index] ^= 0x01
            #expect(
                F.reason { () throws(PasskeyRefusal) in
                    try F.verifier.assert(flipped, publicKey: stored.publicKey, ceremony: F.ceremony(F.challenge(2)))
                } == .badSignature)
        }
        // A valid signature, by another credential's key.
        var other = F.passkey(algorithm)
        let foreign = try other.assert(challenge: F.challenge(2))
        #expect(
            F.reason { () throws(PasskeyRefusal) in
                try F.verifier.assert(F.input(foreign), publicKey: stored.publicKey, ceremony: F.ceremony(F.challenge(2)))
            } == .badSignature)
        var truncated = F.input(assertion)
        truncated.signature.removeLast()
        #expect(
            F.reason { () throws(PasskeyRefusal) in
                try F.verifier.assert(truncated, publicKey: stored.publicKey, ceremony: F.ceremony(F.challenge(2)))
            } == .badSignature)
        // Signature-covered bytes: the counter and the client data.
        var counter = F.input(assertion)
        counter.authenticatorData[36] ^= 0x01
        #expect(
            F.reason { () throws(PasskeyRefusal) in try F.verifier.assert(counter, publicKey: stored.publicKey, ceremony: F.ceremony(F.challenge(2)))
            } == .badSignature)
        var clientData = F.input(assertion)
        clientData.clientDataJSON = Array(
            String(decoding: clientData.clientDataJSON, as: UTF8.self).replacingOccurrences(of: "false", with: "false ").utf8)
        #expect(
            F.reason { () throws(PasskeyRefusal) in
                try F.verifier.assert(clientData, publicKey: stored.publicKey, ceremony: F.ceremony(F.challenge(2)))
            } == .badSignature)
    }
}

@Suite struct WebAuthnRefusalTests {
    /// Registers `key` over challenge 1 against `ceremony` (challenge 1 by default).
    private func register(_ key: inout SoftwarePasskey, ceremony: PasskeyCeremony = F.ceremony(F.challenge(1))) -> PasskeyRefusal.Reason? {
        let registration = key.register(challenge: F.challenge(1), userHandle: [1])
        return F.reason { () throws(PasskeyRefusal) in try F.verifier.register(F.input(registration), ceremony: ceremony) }
    }

    /// Signs in with `key` over challenge 2 against `ceremony`, with the key `stored`.
    private func assert(_ key: inout SoftwarePasskey, _ stored: NewPasskey, ceremony: PasskeyCeremony = F.ceremony(F.challenge(2))) throws
        -> PasskeyRefusal.Reason?
    {
        let assertion = try key.assert(challenge: F.challenge(2))
        return F.reason { () throws(PasskeyRefusal) in try F.verifier.assert(F.input(assertion), publicKey: stored.publicKey, ceremony: ceremony) }
    }

    @Test func wrongOriginRelyingPartyAndChallenge() throws {
        var (key, stored) = try F.registered()
        var evil = key
        evil.origin = "https://localhost.evil.example"
        #expect(register(&evil) == .wrongOrigin)
        #expect(try assert(&evil, stored) == .wrongOrigin)
        #expect(try assert(&key, stored, ceremony: F.ceremony(F.challenge(2), origins: ["http://localhost:1338"])) == .wrongOrigin)
        // Exact entries only: an Android app's origin is one string like any other.
        key.origin = "android:apk-key-hash:gx7sq_pxhxhrIQdLyfG0pxKwiJ7hOk2DJQ4xvKd438Q"
        #expect(try assert(&key, stored, ceremony: F.ceremony(F.challenge(2), origins: [F.origin, key.origin])) == nil)
        #expect(try assert(&key, stored) == .wrongOrigin)
        key.origin = F.origin

        var otherRP = key
        otherRP.rpId = "example.com"
        #expect(register(&otherRP) == .wrongRelyingParty)
        #expect(try assert(&otherRP, stored) == .wrongRelyingParty)

        #expect(register(&key, ceremony: F.ceremony(F.challenge(3))) == .wrongChallenge)
        #expect(try assert(&key, stored, ceremony: F.ceremony(F.challenge(1))) == .wrongChallenge)
        #expect(try assert(&key, stored, ceremony: F.ceremony(Array(F.challenge(2).dropLast()))) == .wrongChallenge)
    }

    @Test func crossOriginAndTopOrigin() throws {
        let (key, stored) = try F.registered()
        var signer = key
        let registration = signer.register(challenge: F.challenge(1), userHandle: [1])
        let assertion = try signer.assert(challenge: F.challenge(2))
        let challenge1 = Base64URL.encode(F.challenge(1))
        let challenge2 = Base64URL.encode(F.challenge(2))
        for extra in [#""crossOrigin":true"#, #""crossOrigin":false,"topOrigin":"https://evil.example""#] {
            var input = F.input(registration)
            input.clientDataJSON = F.clientData(#""type":"webauthn.create","challenge":"\#(challenge1)","origin":"\#(F.origin)",\#(extra)"#)
            #expect(F.reason { () throws(PasskeyRefusal) in try F.verifier.register(input, ceremony: F.ceremony(F.challenge(1))) } == .wrongOrigin)
            var signIn = F.input(assertion)
            signIn.clientDataJSON = F.clientData(#""type":"webauthn.get","challenge":"\#(challenge2)","origin":"\#(F.origin)",\#(extra)"#)
            #expect(
                F.reason { () throws(PasskeyRefusal) in
                    try F.verifier.assert(signIn, publicKey: stored.publicKey, ceremony: F.ceremony(F.challenge(2)))
                } == .wrongOrigin)
        }
        // crossOrigin of another type, a challenge padded or not base64url, a missing member, not an object.
        for members in [
            #""type":"webauthn.create","challenge":"\#(challenge1)","origin":"\#(F.origin)","crossOrigin":"false""#,
            #""type":"webauthn.create","challenge":"\#(challenge1)=","origin":"\#(F.origin)""#,
            #""type":"webauthn.create","challenge":"\#(challenge1.dropLast())+","origin":"\#(F.origin)""#,
            #""type":"webauthn.create","origin":"\#(F.origin)""#, #""type":"webauthn.create","challenge":"\#(challenge1)""#,
            #""type":"webauthn.create","challenge":"\#(challenge1)","origin":"\#(F.origin)","origin":"\#(F.origin)""#,
        ] {
            var input = F.input(registration)
            input.clientDataJSON = F.clientData(members)
            #expect(F.reason { () throws(PasskeyRefusal) in try F.verifier.register(input, ceremony: F.ceremony(F.challenge(1))) } == .malformed)
        }
        var notObject = F.input(registration)
        notObject.clientDataJSON = Array(#"["webauthn.create"]"#.utf8)
        #expect(F.reason { () throws(PasskeyRefusal) in try F.verifier.register(notObject, ceremony: F.ceremony(F.challenge(1))) } == .malformed)
        #expect(F.verifier.challenge(inClientData: notObject.clientDataJSON) == nil)
        #expect(F.verifier.challenge(inClientData: F.clientData(#""type":"webauthn.get","challenge":"","origin":"x""#)) == nil)
    }

    @Test func ceremonyTypesAreNotInterchangeable() throws {
        var (key, stored) = try F.registered()
        let registration = key.register(challenge: F.challenge(1), userHandle: [1])
        let assertion = try key.assert(challenge: F.challenge(1))
        var createWithGet = F.input(registration)
        createWithGet.clientDataJSON = assertion.clientDataJSON
        #expect(F.reason { () throws(PasskeyRefusal) in try F.verifier.register(createWithGet, ceremony: F.ceremony(F.challenge(1))) } == .wrongType)
        var getWithCreate = F.input(assertion)
        getWithCreate.clientDataJSON = registration.clientDataJSON
        #expect(
            F.reason { () throws(PasskeyRefusal) in
                try F.verifier.assert(getWithCreate, publicKey: stored.publicKey, ceremony: F.ceremony(F.challenge(1)))
            } == .wrongType)
        // A registration's authenticator data (AT set) offered as a sign-in's, and the reverse.
        var atOnSignIn = F.input(assertion)
        atOnSignIn.authenticatorData = try F.authenticatorData(of: registration)
        #expect(
            F.reason { () throws(PasskeyRefusal) in
                try F.verifier.assert(atOnSignIn, publicKey: stored.publicKey, ceremony: F.ceremony(F.challenge(1)))
            } == .inconsistentFlags)
        #expect(F.registrationReason(authData: assertion.authenticatorData) == .inconsistentFlags)
    }

    @Test func userPresenceAndVerification() throws {
        var (key, stored) = try F.registered()
        key.userVerified = false
        #expect(register(&key) == .userNotVerified)
        #expect(try assert(&key, stored) == .userNotVerified)
        #expect(register(&key, ceremony: F.ceremony(F.challenge(1), requiresUV: false)) == nil)
        #expect(try assert(&key, stored, ceremony: F.ceremony(F.challenge(2), requiresUV: false)) == nil)
        key.userPresent = false
        #expect(register(&key, ceremony: F.ceremony(F.challenge(1), requiresUV: false)) == .userNotPresent)
        #expect(try assert(&key, stored, ceremony: F.ceremony(F.challenge(2), requiresUV: false)) == .userNotPresent)
        key.userPresent = true
        key.userVerified = true
        key.backupEligible = false
        #expect(register(&key) == .inconsistentFlags)
        #expect(try assert(&key, stored) == .inconsistentFlags)
        key.backedUp = false
        #expect(register(&key) == nil)
        let checked = try F.verifier.assert(
            F.input(key.assert(challenge: F.challenge(2))), publicKey: stored.publicKey, ceremony: F.ceremony(F.challenge(2)))
        #expect(!checked.backupEligible && !checked.backedUp)
    }

    @Test func oversizedClientData() throws {
        var (key, stored) = try F.registered()
        let registration = key.register(challenge: F.challenge(1), userHandle: [1])
        var input = F.input(registration)
        let padding = String(repeating: "a", count: ClientData.maximumSize)
        input.clientDataJSON = F.clientData(
            #""type":"webauthn.create","challenge":"\#(Base64URL.encode(F.challenge(1)))","origin":"\#(F.origin)","pad":"\#(padding)""#)
        #expect(F.reason { () throws(PasskeyRefusal) in try F.verifier.register(input, ceremony: F.ceremony(F.challenge(1))) } == .malformed)
        #expect(F.verifier.challenge(inClientData: input.clientDataJSON) == nil)
        var signIn = try F.input(key.assert(challenge: F.challenge(2)))
        signIn.clientDataJSON = input.clientDataJSON
        #expect(
            F.reason { () throws(PasskeyRefusal) in try F.verifier.assert(signIn, publicKey: stored.publicKey, ceremony: F.ceremony(F.challenge(2))) }
                == .malformed)
    }
}
