package import RooftopCore

/// One `authData` provider: checks the data a client sends and names the identity in it.
///
/// Real providers (Apple, Google, …, in `RooftopIdentity`) verify a token against the provider
/// here; the accounts use cases only see the identity they return. Adding a provider means
/// adding one of these.
package protocol AuthProvider: Sendable {
    /// The `authData` key, e.g. `anonymous`.
    var name: String { get }
    /// The identity, after validation; a token that doesn't validate is 101 (Parse), and the
    /// error never quotes the token.
    func validate(_ data: [String: JSON]) async throws -> VerifiedIdentity
}

/// A provider that also signs people in through their browser: an OAuth 2.0 authorization code
/// with PKCE (S256), `state` and `nonce`, exchanged by the server at the provider's token
/// endpoint and checked as a client's token would be.
package protocol BrowserAuthProvider: AuthProvider {
    /// Whether the browser flow is configured (a client id; endpoints known or discoverable).
    var supportsBrowser: Bool { get }
    /// The provider's authorization URL for one flow.
    func authorizationURL(_ request: AuthorizationRequest) async throws -> String
    /// Exchanges `code` (with the server's PKCE `verifier` and the same `redirectURI`) and
    /// validates what the provider returns; 101 when anything fails. The nonce, for ID tokens,
    /// must be the flow's.
    func redeem(code: String, verifier: String, redirectURI: String, nonce: String) async throws -> VerifiedIdentity
    /// Whether the provider returns to the callback with a form POST (`response_mode=form_post`,
    /// Apple's) rather than a GET; the callback accepts only the provider's own way.
    var returnsByFormPost: Bool { get }
}

extension BrowserAuthProvider {
    /// Most providers return with a GET.
    package var returnsByFormPost: Bool { false }
}

/// What the server asks a provider for in one browser flow.
package struct AuthorizationRequest: Sendable {
    /// The server's callback (`<server>/auth/<provider>/callback`).
    package var redirectURI: String
    /// The flow's `state` (random, single-use).
    package var state: String
    /// The flow's `nonce` (ID tokens must carry it).
    package var nonce: String
    /// S256 of the server's own PKCE verifier.
    package var codeChallenge: String

    /// Creates a request.
    package init(redirectURI: String, state: String, nonce: String, codeChallenge: String) {
        self.redirectURI = redirectURI
        self.state = state
        self.nonce = nonce
        self.codeChallenge = codeChallenge
    }
}

/// Who a provider says signed in: its subject id and the non-secret profile claims it vouches
/// for. Never a token: this is what the user keeps in `authData.<provider>`.
package struct VerifiedIdentity: Sendable, Equatable {
    /// The `authData` key of the provider.
    package var provider: String
    /// The provider's stable id of the person (`sub`, Facebook's and GitHub's user id).
    package var subject: String
    /// The email address the provider gave, if any.
    package var email: String?
    /// Whether the provider says it verified `email`.
    package var emailVerified: Bool
    /// The display name the provider gave, if any.
    package var name: String?

    /// Creates an identity.
    package init(provider: String, subject: String, email: String? = nil, emailVerified: Bool = false, name: String? = nil) {
        self.provider = provider
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.name = name
    }

    /// What `authData.<provider>` keeps: the id and the profile claims, never a token.
    var stored: JSON {
        var kept: [String: JSON] = ["id": .string(subject)]
        if let email {
            kept["email"] = .string(email)
            kept["email_verified"] = .bool(emailVerified)
        }
        if let name { kept["name"] = .string(name) }
        return .object(kept)
    }
}

/// `authData.anonymous`: a device-generated UUID, nothing to verify but its shape.
package struct AnonymousAuthProvider: AuthProvider {
    /// `anonymous`.
    package let name = "anonymous"

    /// Creates the provider.
    package init() {}

    /// Only a string UUID: an operator object or empty id can't become a lookup of someone else.
    package func validate(_ data: [String: JSON]) async throws -> VerifiedIdentity {
        guard case .string(let id)? = data["id"], Self.isUUID(id) else {
            throw ParseError(.invalidJSON, "authData.anonymous.id must be a UUID string.")
        }
        return VerifiedIdentity(provider: name, subject: id.lowercased())
    }

    static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12] else { return false }
        return groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}

/// The enabled providers by name; anything else is 252, as in Parse.
package struct AuthProviders: Sendable {
    let providers: [String: any AuthProvider]

    /// Creates the registry from explicitly enabled providers.
    package init(_ providers: [any AuthProvider]) {
        self.providers = Dictionary(providers.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The provider called `name`, or 252.
    func provider(_ name: String) throws(ParseError) -> any AuthProvider {
        guard FieldName.isIdentifier(name), let provider = providers[name] else {
            throw ParseError(.unsupportedService, "This authentication method is unsupported.")
        }
        return provider
    }

    /// What `authData.<provider>` keeps on the user once validated: the identity's id and
    /// profile claims, never what the client sent (tokens stay out). An anonymous id is the
    /// whole credential (sending it logs in, with no password), so it is kept only in the
    /// internal id field no read returns: reads show `authData.anonymous` as `{}`.
    static func storedData(_ identity: VerifiedIdentity) -> JSON {
        identity.provider == "anonymous" ? .object([:]) : identity.stored
    }

    /// The browser-capable provider called `name`, or 252.
    func browserProvider(_ name: String) throws(ParseError) -> any BrowserAuthProvider {
        guard let provider = try provider(name) as? any BrowserAuthProvider, provider.supportsBrowser else {
            throw ParseError(.unsupportedService, "This authentication method is unsupported in the browser.")
        }
        return provider
    }

    /// Whether `name` is an enabled provider.
    func isEnabled(_ name: String) -> Bool { providers[name] != nil }

    /// A `_User` document as clients see it: an anonymous id stored by an older build (before
    /// `storedData` kept it out) is dropped.
    static func redacted(_ user: [String: JSON]) -> [String: JSON] {
        guard case .object(var authData)? = user["authData"], case .object(var anonymous)? = authData["anonymous"],
            anonymous["id"] != nil
        else { return user }
        anonymous["id"] = nil
        authData["anonymous"] = .object(anonymous)
        var user = user
        user["authData"] = .object(authData)
        return user
    }

    /// The internal, uniquely indexed field holding a provider's id on `_User`.
    static func idField(_ provider: String) -> FieldName { .internal(authIdOf: provider) }
}
