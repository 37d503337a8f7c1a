import Crypto
import CryptoExtras
import Foundation
import RooftopCore
import RooftopCrypto

/// A passkey in software, for tests: it registers and signs like a platform authenticator behind
/// a browser (`none` attestation, canonical CBOR, client data as Chromium writes it), and its
/// knobs make the hostile variants (no user verification, BS without BE, a replayed counter).
package struct SoftwarePasskey: Sendable {
    /// The COSE algorithm of its key.
    package enum Algorithm: Sendable { case es256, eddsa, rs256 }

    /// What `navigator.credentials.create` resolves with (binary fields, not yet base64url).
    package struct Registration: Sendable {
        /// The new credential's ID.
        package var credentialId: [UInt8]
        /// The client data, as serialized.
        package var clientDataJSON: [UInt8]
        /// The CBOR attestation object.
        package var attestationObject: [UInt8]
    }

    /// What `navigator.credentials.get` resolves with.
    package struct Assertion: Sendable {
        /// The credential used.
        package var credentialId: [UInt8]
        /// The client data, as serialized.
        package var clientDataJSON: [UInt8]
        /// The authenticator data signed.
        package var authenticatorData: [UInt8]
        /// The signature over `authenticatorData ‖ SHA-256(clientDataJSON)`.
        package var signature: [UInt8]
        /// The user handle given at registration.
        package var userHandle: [UInt8]?
    }

    /// Why the passkey declined, as a browser would (an excluded or not allowed credential, another RP).
    package struct Declined: Error, Sendable, Equatable {
        /// What was wrong.
        package var reason: String
    }

    private enum SigningKey: Sendable {
        case p256(P256.Signing.PrivateKey)
        case ed25519(Curve25519.Signing.PrivateKey)
        case rsa(_RSA.Signing.PrivateKey)
    }

    private let key: SigningKey
    /// The key's algorithm.
    package let algorithm: Algorithm
    /// The credential's ID (32 random bytes).
    package let credentialId: [UInt8]
    /// The user handle the last registration gave it.
    package private(set) var userHandle: [UInt8]?
    /// Sets UV.
    package var userVerified = true
    /// Sets UP.
    package var userPresent = true
    /// Sets BE.
    package var backupEligible = true
    /// Sets BS.
    package var backedUp = true
    /// The counter written into authenticator data.
    package var signCount: UInt32 = 0
    /// When true, each assertion increments `signCount` first (a security key); platform passkeys keep 0.
    package var countsSignatures = false
    /// The origin the "browser" writes into client data.
    package var origin: String
    /// The RP ID whose hash opens authenticator data.
    package var rpId: String

    /// A new key of `algorithm` (RS256 keys are 2048-bit) and a random credential ID.
    package init(algorithm: Algorithm = .es256, rpId: String, origin: String) {
        switch algorithm {
        case .es256: key = .p256(P256.Signing.PrivateKey())
        case .eddsa: key = .ed25519(Curve25519.Signing.PrivateKey())
        case .rs256:
            // Generating a 2048-bit key only fails on allocation failure.
            guard let rsa = try? _RSA.Signing.PrivateKey(keySize: .bits2048) else { preconditionFailure("RSA key generation failed") }
            key = .rsa(rsa)
        }
        self.algorithm = algorithm
        var generator = SystemRandomNumberGenerator()
        credentialId = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        self.rpId = rpId
        self.origin = origin
    }

    /// The COSE encoding of the public key, in canonical order.
    package var publicKeyCOSE: [UInt8] {
        let int = CBORWriter.int
        switch key {
        case .p256(let privateKey):
            let point = Array(privateKey.publicKey.x963Representation)
            return CBORWriter.encode(
                CBORWriter.map([
                    (int(1), int(2)), (int(3), int(-7)), (int(-1), int(1)), (int(-2), .byteString(Array(point[1..<33]))),
                    (int(-3), .byteString(Array(point[33..<65]))),
                ]))
        case .ed25519(let privateKey):
            return CBORWriter.encode(
                CBORWriter.map([
                    (int(1), int(1)), (int(3), int(-8)), (int(-1), int(6)), (int(-2), .byteString(Array(privateKey.publicKey.rawRepresentation))),
                ]))
        case .rsa(let privateKey):
            let primitives = try? privateKey.publicKey.getKeyPrimitives()
            return CBORWriter.encode(
                CBORWriter.map([
                    (int(1), int(3)), (int(3), int(-257)), (int(-1), .byteString(Array(primitives?.modulus ?? Data()))),
                    (int(-2), .byteString(Array(primitives?.publicExponent ?? Data()))),
                ]))
        }
    }

    /// Creates the credential for `userHandle` over `challenge`.
    package mutating func register(challenge: [UInt8], userHandle: [UInt8]) -> Registration {
        self.userHandle = userHandle
        let clientData = Self.clientData(type: "webauthn.create", challenge: challenge, origin: origin)
        let idLength = [UInt8(credentialId.count >> 8), UInt8(credentialId.count & 0xff)]
        let authenticatorData = authenticatorDataPrefix(attested: true) + [UInt8](repeating: 0, count: 16) + idLength + credentialId + publicKeyCOSE
        let attestation = CBORWriter.encode(
            CBORWriter.map([
                (.textString("fmt"), .textString("none")), (.textString("attStmt"), CBORWriter.map([])),
                (.textString("authData"), .byteString(authenticatorData)),
            ]))
        return Registration(credentialId: credentialId, clientDataJSON: clientData, attestationObject: attestation)
    }

    /// Signs in over `challenge`; declines when `allowCredentials` is non-empty and lacks this credential.
    package mutating func assert(challenge: [UInt8], allowCredentials: [[UInt8]] = []) throws -> Assertion {
        guard allowCredentials.isEmpty || allowCredentials.contains(credentialId) else {
            throw Declined(reason: "credential not allowed")
        }
        if countsSignatures { signCount &+= 1 }
        let clientData = Self.clientData(type: "webauthn.get", challenge: challenge, origin: origin)
        let authenticatorData = authenticatorDataPrefix(attested: false)
        let signature = try sign(authenticatorData + Array(SHA256.hash(data: clientData)))
        return Assertion(
            credentialId: credentialId, clientDataJSON: clientData, authenticatorData: authenticatorData, signature: signature,
            userHandle: userHandle)
    }

    /// `message` signed with the credential's key, encoded as WebAuthn sends it.
    package func sign(_ message: [UInt8]) throws -> [UInt8] {
        switch key {
        case .p256(let privateKey): return Array(try privateKey.signature(for: message).derRepresentation)
        case .ed25519(let privateKey): return Array(try privateKey.signature(for: message))
        case .rsa(let privateKey): return Array(try privateKey.signature(for: message, padding: .insecurePKCS1v1_5).rawRepresentation)
        }
    }

    private func authenticatorDataPrefix(attested: Bool) -> [UInt8] {
        var flags: UInt8 = 0
        if userPresent { flags |= 0x01 }
        if userVerified { flags |= 0x04 }
        if backupEligible { flags |= 0x08 }
        if backedUp { flags |= 0x10 }
        if attested { flags |= 0x40 }
        let counter = (0..<4).reversed().map { UInt8(truncatingIfNeeded: signCount >> (UInt32($0) * 8)) }
        return Array(SHA256.hash(data: Array(rpId.utf8))) + [flags] + counter
    }

    /// Client data as Chromium serializes it: these four members in this order.
    private static func clientData(type: String, challenge: [UInt8], origin: String) -> [UInt8] {
        let text = #"{"type":"\#(type)","challenge":"\#(Base64URL.encode(challenge))","origin":\#(quoted(origin)),"crossOrigin":false}"#
        return Array(text.utf8)
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{0}"..."\u{1f}": out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
