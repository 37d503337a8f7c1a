import JWTKit

/// The claims of an OpenID Connect ID token this server reads. `verify(using:)` checks nothing:
/// the times are checked against the server's clock (`IDTokenVerifier`), the audience by
/// jwt-kit's identity-token verification.
struct IDTokenClaims: JWTIdentityToken {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var iat: IssuedAtClaim
    /// Not before: optional in OpenID Connect, checked when present.
    var nbf: NotBeforeClaim?
    /// The authorized party: required when the token names several audiences.
    var azp: String?
    var nonce: String?
    var email: String?
    var emailVerified: BoolClaim?
    var name: String?

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, nbf, azp, nonce, email, name
        case emailVerified = "email_verified"
    }

    /// The audiences, for jwt-kit's audience check.
    var audience: AudienceClaim { aud }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
