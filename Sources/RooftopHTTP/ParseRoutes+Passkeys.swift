import Hummingbird
import RooftopCore
import RooftopServices

/// Passkeys (`/users/me/passkeys…` for the signed-in user, `/passkeys/authentication…` to sign
/// in) and the `.well-known` files that let native apps on the site's domain use them.
extension ParseRoutes {
    func passkeyRegistrationOptions(_ request: ParseRequest) async throws -> ParseResponse {
        let userId = try signedInUser(request)
        let options = try await PasskeyRegistration(accounts: accounts, origin: request.origin).options(
            userId: userId, sessionToken: request.sessionToken, body: request.body)
        return ParseResponse(body: .object(options))
    }

    func registerPasskey(_ request: ParseRequest) async throws -> ParseResponse {
        let userId = try signedInUser(request)
        let passkey = try await PasskeyRegistration(accounts: accounts, origin: request.origin).finish(userId: userId, body: request.body)
        return ParseResponse(status: 201, body: .object(passkey))
    }

    func listPasskeys(_ request: ParseRequest) async throws -> ParseResponse {
        let list = try await passkeyManagement(request).list(userId: try signedInUser(request))
        return ParseResponse(body: ["results": .array(list.map(JSON.object))])
    }

    func renamePasskey(_ request: ParseRequest) async throws -> ParseResponse {
        let renamed = try await passkeyManagement(request).rename(userId: try signedInUser(request), id: try passkeyId(request), body: request.body)
        return ParseResponse(body: .object(renamed))
    }

    func deletePasskey(_ request: ParseRequest) async throws -> ParseResponse {
        try await passkeyManagement(request).remove(userId: try signedInUser(request), id: try passkeyId(request))
        return ParseResponse(body: [:])
    }

    func passkeySignInOptions(_ request: ParseRequest) async throws -> ParseResponse {
        ParseResponse(body: .object(try await PasskeySignIn(accounts: accounts, origin: request.origin).options(body: request.body)))
    }

    func signInWithPasskey(_ request: ParseRequest) async throws -> ParseResponse {
        let answer = try await PasskeySignIn(accounts: accounts, origin: request.origin).finish(
            body: request.body, installationId: request.installationId)
        return ParseResponse(body: .object(answer))
    }

    /// `/.well-known/apple-app-site-association`: the apps that may use the site's passkeys
    /// (`webcredentials`); 404 when none is configured.
    func appleAppSiteAssociation(_ request: ParseRequest) async throws -> ParseResponse {
        let apps = accounts.config.passkeys.appleAppIds
        guard !apps.isEmpty else { throw HTTPError(.notFound) }
        return ParseResponse(body: ["webcredentials": ["apps": .array(apps.map(JSON.string))]])
    }

    /// `/.well-known/assetlinks.json`: the Android apps that may use the site's passkeys
    /// (Digital Asset Links, `get_login_creds`); 404 when none is configured.
    func assetLinks(_ request: ParseRequest) async throws -> ParseResponse {
        let apps = accounts.config.passkeys.androidApps
        guard !apps.isEmpty else { throw HTTPError(.notFound) }
        return ParseResponse(
            body: .array(
                apps.map { app in
                    [
                        "relation": ["delegate_permission/common.get_login_creds"],
                        "target": [
                            "namespace": "android_app", "package_name": .string(app.packageName),
                            "sha256_cert_fingerprints": .array(app.fingerprints.map(JSON.string)),
                        ],
                    ]
                }))
    }

    private func passkeyManagement(_ request: ParseRequest) -> PasskeyManagement {
        PasskeyManagement(accounts: accounts, origin: request.origin)
    }

    /// The `:id` of a passkey path (`PasskeyWire.isCredentialId`).
    private func passkeyId(_ request: ParseRequest) throws -> String {
        guard let id = request.pathParameters["id"], PasskeyWire.isCredentialId(id) else {
            throw ParseError(.objectNotFound, "Passkey not found.")
        }
        return id
    }
}
