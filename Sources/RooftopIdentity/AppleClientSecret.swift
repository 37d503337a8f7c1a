import Foundation
import JWTKit
import RooftopCore
import RooftopServices

/// Sign in with Apple's client secret: Apple's token endpoint takes, as `client_secret`, an
/// ES256 JWT the server signs with the operator's Sign in with Apple key (the `.p8` file):
/// header `kid` = the key id; claims `iss` = the team id, `iat`, `exp` (Apple allows up to six
/// months after `iat`), `aud` = `https://appleid.apple.com`, `sub` = the Services ID.
///
/// A secret is kept for `lifetime` and signed again `renewal` before it expires, on the
/// server's clock. A short lifetime bounds what a secret seen in transit is worth. The key
/// and the secrets are never logged.
actor AppleClientSecret {
    /// How long a signed secret is valid (ms): an hour, far under Apple's six months.
    static let lifetime: Int64 = 3_600_000
    /// How long before its expiry a secret is replaced (ms).
    static let renewal: Int64 = 600_000
    /// Apple's audience for client secrets.
    static let audience = "https://appleid.apple.com"

    private let key: AppleSigningKey
    private let clientId: String
    private let clock: any ServerClock
    private var signers: JWTKeyCollection?
    private var cached: (secret: String, expiresAt: Int64)?

    /// Signs for `clientId` (the Services ID) with `key`; nil when the key is not a P-256
    /// private key in PEM.
    init?(key: AppleSigningKey, clientId: String, clock: any ServerClock) {
        guard key.isValid else { return nil }
        self.key = key
        self.clientId = clientId
        self.clock = clock
    }

    /// The current secret, signed anew when none is kept or it expires within `renewal`.
    func value() async throws(ParseError) -> String {
        let now = clock.now().millisecondsSince1970
        if let cached, cached.expiresAt - Self.renewal > now { return cached.secret }
        let issued = now / 1000 * 1000
        let claims = Claims(
            iss: IssuerClaim(value: key.teamId), sub: SubjectClaim(value: clientId), aud: AudienceClaim(value: [Self.audience]),
            iat: IssuedAtClaim(value: Date(timeIntervalSince1970: Double(issued / 1000))),
            exp: ExpirationClaim(value: Date(timeIntervalSince1970: Double((issued + Self.lifetime) / 1000))))
        do {
            let signers: JWTKeyCollection
            if let existing = self.signers {
                signers = existing
            } else {
                signers = try await Self.collection(key)
                self.signers = signers
            }
            let secret = try await signers.sign(claims, kid: JWKIdentifier(string: key.keyId))
            cached = (secret, issued + Self.lifetime)
            return secret
        } catch {
            throw ParseError(.internalServerError, "The Sign in with Apple client secret could not be signed.")
        }
    }

    private static func collection(_ key: AppleSigningKey) async throws -> JWTKeyCollection {
        let collection = JWTKeyCollection()
        await collection.add(ecdsa: try ES256PrivateKey(pem: key.privateKey), kid: JWKIdentifier(string: key.keyId))
        return collection
    }

    /// The client secret's claims.
    struct Claims: JWTPayload {
        var iss: IssuerClaim
        var sub: SubjectClaim
        var aud: AudienceClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}

/// What the client secret of the browser flow's token endpoint is: a configured text (Google,
/// GitHub, OpenID Connect; Apple's pre-signed JWT) or Apple's, signed here.
enum ClientSecret: Sendable {
    /// Sent as configured.
    case fixed(String)
    /// Signed with the operator's Sign in with Apple key.
    case apple(AppleClientSecret)

    /// The text to send.
    func value() async throws(ParseError) -> String {
        switch self {
        case .fixed(let text): text
        case .apple(let signer): try await signer.value()
        }
    }
}

extension AppleSigningKey {
    /// Whether the private key is a P-256 key in PEM (Apple's `.p8` is PKCS#8 PEM); start-up
    /// refuses anything else, without quoting the key.
    package var isValid: Bool { (try? ES256PrivateKey(pem: privateKey)) != nil }
}
