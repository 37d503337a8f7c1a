import Crypto
import CryptoExtras
import Foundation
package import RooftopServices

// COSE public keys (RFC 9052/9053) for the three algorithms passkeys use, turned into
// swift-crypto keys. A key is accepted only when its algorithm, key type and curve agree: a
// signature is then checked the one way that algorithm defines, never chosen by the signer.

/// A credential's public key, validated (a point on the curve, an RSA modulus of a sane size).
package struct COSEKey: Sendable {
    /// The COSE algorithm identifiers supported.
    package enum Algorithm: Int, Sendable {
        /// ECDSA on P-256 with SHA-256 (signatures DER-encoded, as WebAuthn sends them).
        case es256 = -7
        /// Ed25519 (raw 64-byte signatures).
        case eddsa = -8
        /// RSASSA-PKCS1-v1_5 with SHA-256 (Windows Hello).
        case rs256 = -257
    }

    private enum Key: Sendable {
        case p256(P256.Signing.PublicKey)
        case ed25519(Curve25519.Signing.PublicKey)
        case rsa(_RSA.Signing.PublicKey)
    }

    /// The key's algorithm.
    package let algorithm: Algorithm
    private let key: Key

    /// The smallest RSA modulus accepted, in bits.
    package static let minimumRSABits = 2048
    /// The largest RSA modulus accepted, in bits (a bound on the cost of one verification).
    package static let maximumRSABits = 4096

    /// Decodes and validates a stored key (`NewPasskey.publicKey`): exactly one CBOR map.
    package init(bytes: [UInt8]) throws(PasskeyRefusal) {
        let value: CBORValue
        do {
            value = try CBORDecoder.decode(bytes, limits: .webAuthn)
        } catch {
            throw PasskeyRefusal(.malformed, "COSE key: \(error)")
        }
        try self.init(value)
    }

    /// Validates a decoded key: kty (1), alg (3) and the parameters of that pair; other labels
    /// (a `kid`, say) are ignored, as they play no part in a verification.
    package init(_ value: CBORValue) throws(PasskeyRefusal) {
        guard value.map != nil else { throw PasskeyRefusal(.malformed, "COSE key is not a map") }
        guard let keyType = value[1]?.int, let algorithmId = value[3]?.int else {
            throw PasskeyRefusal(.unsupportedKey, "COSE key without kty or alg")
        }
        guard let algorithm = Algorithm(rawValue: Int(algorithmId)) else {
            throw PasskeyRefusal(.unsupportedKey, "COSE algorithm \(algorithmId)")
        }
        self.algorithm = algorithm
        switch (keyType, algorithm) {
        case (2, .es256):
            guard value[-1]?.int == 1 else { throw PasskeyRefusal(.unsupportedKey, "EC2 curve is not P-256") }
            guard let x = value[-2]?.bytes, let y = value[-3]?.bytes, x.count == 32, y.count == 32 else {
                throw PasskeyRefusal(.unsupportedKey, "P-256 coordinates are not 32 bytes each")
            }
            do {
                // swift-crypto refuses a point that is not on the curve.
                key = .p256(try P256.Signing.PublicKey(x963Representation: [0x04] + x + y))
            } catch {
                throw PasskeyRefusal(.unsupportedKey, "P-256 point not on the curve")
            }
        case (1, .eddsa):
            guard value[-1]?.int == 6 else { throw PasskeyRefusal(.unsupportedKey, "OKP curve is not Ed25519") }
            guard let x = value[-2]?.bytes, x.count == 32 else { throw PasskeyRefusal(.unsupportedKey, "Ed25519 key is not 32 bytes") }
            do {
                key = .ed25519(try Curve25519.Signing.PublicKey(rawRepresentation: x))
            } catch {
                throw PasskeyRefusal(.unsupportedKey, "Ed25519 key refused")
            }
        case (3, .rs256):
            guard let n = value[-1]?.bytes, let e = value[-2]?.bytes, !e.isEmpty, e.count <= 8 else {
                throw PasskeyRefusal(.unsupportedKey, "RSA key without n and e")
            }
            let modulus = Array(n.drop(while: { $0 == 0 }))
            let bits = modulus.first.map { modulus.count * 8 - $0.leadingZeroBitCount } ?? 0
            guard (Self.minimumRSABits...Self.maximumRSABits).contains(bits) else {
                throw PasskeyRefusal(.unsupportedKey, "RSA modulus of \(bits) bits")
            }
            do {
                key = .rsa(try _RSA.Signing.PublicKey(n: modulus, e: e))
            } catch {
                throw PasskeyRefusal(.unsupportedKey, "RSA key refused")
            }
        default:
            throw PasskeyRefusal(.unsupportedKey, "COSE kty \(keyType) does not match alg \(algorithmId)")
        }
    }

    /// Whether `signature` is this key's signature over `message` (for WebAuthn, the
    /// authenticator data followed by SHA-256 of the client data).
    package func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        switch key {
        case .p256(let publicKey):
            guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return publicKey.isValidSignature(parsed, for: message)
        case .ed25519(let publicKey):
            guard signature.count == 64 else { return false }
            return publicKey.isValidSignature(signature, for: message)
        case .rsa(let publicKey):
            // PKCS#1 v1.5 is what RS256 means; "insecure" is swift-crypto's warning for encryption.
            return publicKey.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: message, padding: .insecurePKCS1v1_5)
        }
    }
}
