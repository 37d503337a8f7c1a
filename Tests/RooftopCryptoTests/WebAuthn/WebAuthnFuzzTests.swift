import RooftopCrypto
import RooftopServices
import RooftopTesting
import Testing

// A bounded, deterministic fuzz of the verifier (the open-ended one is ./scripts/fuzz-cbor
// webauthn): mutated attestation objects never trap, and a sign-in whose signed bytes or
// signature changed in any way is never accepted.

private typealias F = WebAuthnFixture

/// One random edit: flip a bit, set a byte, insert, delete, or cut the tail.
private func mutate(_ bytes: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
    var out = bytes
    let position = out.isEmpty ? 0 : Int(random.next() % UInt64(out.count))
    switch random.next() % 5 {
    case 0 where !out.isEmpty: out[position] ^= UInt8(1) << UInt8(random.next() % 8)
    case 1 where !out.isEmpty: out[position] = UInt8(truncatingIfNeeded: random.next())
    case 2: out.insert(UInt8(truncatingIfNeeded: random.next()), at: position)
    case 3 where !out.isEmpty: out.remove(at: position)
    default: out = Array(out.prefix(position))
    }
    return out
}

@Suite struct WebAuthnFuzzTests {
    @Test(arguments: [SoftwarePasskey.Algorithm.es256, .eddsa, .rs256])
    func mutatedCeremonies(_ algorithm: SoftwarePasskey.Algorithm) throws {
        let seed: UInt64 = algorithm == .es256 ? 1 : algorithm == .eddsa ? 2 : 3
        var random = SplitMix64(state: 0x5eed_0035 &+ seed)
        let (registered, stored) = try F.registered(algorithm)
        var key = registered
        let registration = key.register(challenge: F.challenge(1), userHandle: [1])
        let assertion = F.input(try key.assert(challenge: F.challenge(2)))
        let rounds = algorithm == .rs256 ? 300 : 1500
        var accepted = 0
        for round in 0..<rounds {
            // Registrations: any outcome but a trap; what is accepted still names a sane credential.
            var input = F.input(registration)
            input.attestationObject = mutate(input.attestationObject, &random)
            if round % 4 == 0 { input.attestationObject = mutate(input.attestationObject, &random) }
            if let credential = try? F.verifier.register(input, ceremony: F.ceremony(F.challenge(1))) {
                accepted += 1
                #expect((1...1023).contains(credential.credentialId.count))
                #expect((try? COSEKey(bytes: credential.publicKey)) != nil)
            }

            // Sign-ins: every byte of the authenticator data and client data is signed.
            var signIn = assertion
            switch round % 3 {
            case 0: signIn.authenticatorData = mutate(signIn.authenticatorData, &random)
            case 1: signIn.clientDataJSON = mutate(signIn.clientDataJSON, &random)
            default: signIn.signature = mutate(signIn.signature, &random)
            }
            let changed =
                signIn.authenticatorData != assertion.authenticatorData || signIn.clientDataJSON != assertion.clientDataJSON
                || signIn.signature != assertion.signature
            guard changed else { continue }
            let outcome = F.reason { () throws(PasskeyRefusal) in
                try F.verifier.assert(signIn, publicKey: stored.publicKey, ceremony: F.ceremony(F.challenge(2)))
            }
            #expect(outcome != nil, "round \(round) accepted a mutated sign-in")
        }
        // Most mutations land in the COSE key, the credential ID or the CBOR around them.
        #expect(accepted < rounds)
    }

    @Test func mutatedStoredKeysNeverTrap() throws {
        var random = SplitMix64(state: 0xc05e)
        for algorithm in [SoftwarePasskey.Algorithm.es256, .eddsa] {
            let key = F.passkey(algorithm).publicKeyCOSE
            for _ in 0..<2000 {
                _ = try? COSEKey(bytes: mutate(key, &random))
            }
        }
    }
}
