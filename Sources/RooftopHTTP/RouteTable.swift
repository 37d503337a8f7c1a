import RooftopCore

/// Every route the server answers, in matching order (the first match wins, so literal paths come
/// before the parameter paths they would also match).
///
/// `docs/compatibility.md` lists the same routes; `RouteTableTests` fails when the two differ.
extension ParseRoutes {
    static let table: [Route] = [
        // Parse Server answers `/health` whatever the method (an unmodified Parse-Swift checks
        // with `POST`); `HEAD` is answered before routing.
        Route(.get, "/health", .open) { _, _ in ParseResponse(body: ["status": "ok"]) }.uncounted().answeringHEAD(),
        Route(.post, "/health", .open) { _, _ in ParseResponse(body: ["status": "ok"]) }.uncounted(),
        Route(.put, "/health", .open) { _, _ in ParseResponse(body: ["status": "ok"]) }.uncounted(),
        Route(.delete, "/health", .open) { _, _ in ParseResponse(body: ["status": "ok"]) }.uncounted(),

        // Objects. `_User` writes are account writes (hashing, uniqueness, sessions) and count
        // as the account routes they stand for, as in Parse.
        // `_Installation` has its own rules (RooftopServices/Installations), on both of its paths.
        Route(.get, "/classes/_Installation", .client, className: "_Installation") { try await $0.findInstallations($1) },
        Route(.post, "/classes/_Installation", .client, className: "_Installation") { try await $0.createInstallation($1) },
        Route(.get, "/classes/_Installation/:objectId", .client, className: "_Installation") { try await $0.getInstallation($1) },
        Route(.put, "/classes/_Installation/:objectId", .client, className: "_Installation") { try await $0.updateInstallation($1) },
        Route(.delete, "/classes/_Installation/:objectId", .client, className: "_Installation") { try await $0.deleteInstallation($1) },
        Route(.get, "/classes/:className", .client) { try await $0.find($1) },
        // In a `/batch` transaction they are plain object writes of custom fields (account
        // fields are refused there), as before the route table.
        Route(.post, "/classes/_User", .client, limitAs: "/users", transactional: .create, className: "_User") { try await $0.signUp($1) },
        Route(.post, "/classes/:className", .client, transactional: .create) { try await $0.create($1) },
        Route(.get, "/classes/:className/:objectId", .client) { try await $0.get($1) },
        Route(.put, "/classes/_User/:objectId", .client, limitAs: "/users/:objectId", transactional: .update, className: "_User") {
            try await $0.updateUser($1)
        },
        Route(.put, "/classes/:className/:objectId", .client, transactional: .update) { try await $0.update($1) },
        Route(.delete, "/classes/_User/:objectId", .client, limitAs: "/users/:objectId", transactional: .delete, className: "_User") {
            try await $0.deleteUser($1)
        },
        Route(.delete, "/classes/:className/:objectId", .client, transactional: .delete) { try await $0.delete($1) },

        // Roles: `_Role` objects under their own path.
        Route(.get, "/roles", .client, className: "_Role") { try await $0.find($1) },
        Route(.post, "/roles", .client, transactional: .create, className: "_Role") { try await $0.create($1) },
        Route(.get, "/roles/:objectId", .client, className: "_Role") { try await $0.get($1) },
        Route(.put, "/roles/:objectId", .client, transactional: .update, className: "_Role") { try await $0.update($1) },
        Route(.delete, "/roles/:objectId", .client, transactional: .delete, className: "_Role") { try await $0.delete($1) },

        // Installations: the same handlers as `/classes/_Installation`.
        Route(.get, "/installations", .client, className: "_Installation") { try await $0.findInstallations($1) },
        Route(.post, "/installations", .client, className: "_Installation") { try await $0.createInstallation($1) },
        Route(.get, "/installations/:objectId", .client, className: "_Installation") { try await $0.getInstallation($1) },
        Route(.put, "/installations/:objectId", .client, className: "_Installation") { try await $0.updateInstallation($1) },
        Route(.delete, "/installations/:objectId", .client, className: "_Installation") { try await $0.deleteInstallation($1) },

        // Users and accounts.
        Route(.post, "/users", .client) { try await $0.signUp($1) },
        Route(.get, "/users", .client, className: "_User") { try await $0.find($1) },
        Route(.get, "/users/me", .session) { try await $0.me($1) },
        // Rooftop's own second-factor routes (ParseRoutes+SecondFactor.swift): the caller's
        // account only. Their codes are counted like a login's, so they count as `/login` too.
        Route(.get, "/users/me/mfa", .session) { try await $0.secondFactorStatus($1) },
        Route(.post, "/users/me/mfa/enroll", .session, limitAs: "/login") { try await $0.startSecondFactor($1) },
        Route(.post, "/users/me/mfa/confirm", .session, limitAs: "/login") { try await $0.confirmSecondFactor($1) },
        Route(.post, "/users/me/mfa/disable", .session, limitAs: "/login") { try await $0.disableSecondFactor($1) },
        Route(.post, "/users/me/mfa/recovery", .session, limitAs: "/login") { try await $0.renewRecoveryCodes($1) },
        // Passkeys (ParseRoutes+Passkeys.swift): the signed-in user's own, then signing in with one.
        Route(.post, "/users/me/passkeys/registration/options", .session, limitAs: "/login") { try await $0.passkeyRegistrationOptions($1) },
        Route(.get, "/users/me/passkeys", .session) { try await $0.listPasskeys($1) },
        Route(.post, "/users/me/passkeys", .session, limitAs: "/login") { try await $0.registerPasskey($1) },
        Route(.put, "/users/me/passkeys/:id", .session) { try await $0.renamePasskey($1) },
        Route(.delete, "/users/me/passkeys/:id", .session) { try await $0.deletePasskey($1) },
        Route(.get, "/users/:objectId", .client, className: "_User") { try await $0.get($1) },
        Route(.put, "/users/:objectId", .client) { try await $0.updateUser($1) },
        Route(.delete, "/users/:objectId", .client) { try await $0.deleteUser($1) },
        Route(.post, "/login", .client, account: .usernameOrEmail) { try await $0.logIn($1) }.ignoringStaleSession(),
        // Old SDKs send credentials in the query string (never logged).
        Route(.get, "/login", .client, account: .usernameOrEmail) { try await $0.logIn($1) }.ignoringStaleSession(),
        Route(.post, "/logout", .session) { try await $0.logOut($1) },
        Route(.post, "/passkeys/authentication/options", .client, limitAs: "/login") { try await $0.passkeySignInOptions($1) },
        Route(.post, "/passkeys/authentication", .client, limitAs: "/login") { try await $0.signInWithPasskey($1) }.ignoringStaleSession(),
        Route(.post, "/loginAs", .client) { try await $0.logInAs($1) },
        Route(.post, "/verifyPassword", .client, account: .usernameOrEmail) { try await $0.verifyPassword($1) },
        Route(.get, "/verifyPassword", .client, account: .usernameOrEmail) { try await $0.verifyPassword($1) },
        Route(.post, "/upgradeToRevocableSession", .client) { try await $0.upgradeToRevocableSession($1) },
        Route(.post, "/requestPasswordReset", .client, account: .email) { try await $0.requestPasswordReset($1) },
        Route(.post, "/verificationEmailRequest", .client, account: .email) { try await $0.requestVerificationEmail($1) },

        // Sign-in through the browser (docs/providers.md): the browser opens `start` and the
        // provider sends it back to `callback` (redirects and hosted pages, no application id);
        // the app then redeems its single-use code. All three count as `/login` for rate limits.
        Route(page: .get, "/auth/:provider/start", limitAs: "/login") { try await $0.startSignIn($1) },
        Route(page: .get, "/auth/:provider/callback", limitAs: "/login") { try await $0.finishSignIn($1) },
        // Apple's `response_mode=form_post` (only for providers that return that way).
        Route(page: .post, "/auth/:provider/callback", body: .form(16_384), limitAs: "/login") { try await $0.finishSignInPost($1) },
        Route(.post, "/auth/token", .client, limitAs: "/login") { try await $0.redeemSignInCode($1) },
        // A signed-in app asks for a link start code (its session stays out of the start URL).
        Route(.post, "/auth/:provider/link", .session, limitAs: "/login") { try await $0.issueLinkCode($1) },

        // Sessions.
        Route(.get, "/sessions", .user) { try await $0.listSessions($1) },
        Route(.post, "/sessions", .user) { try await $0.createSession($1) },
        Route(.get, "/sessions/me", .session) { try await $0.currentSession($1) },
        // Rooftop's own: "sign out my other devices" in one call.
        Route(.post, "/sessions/revokeOthers", .session) { try await $0.revokeOtherSessions($1) },
        Route(.get, "/sessions/:objectId", .user) { try await $0.getSession($1) },
        Route(.put, "/sessions/:objectId", .user) { try await $0.updateSession($1) },
        Route(.delete, "/sessions/:objectId", .user) { try await $0.deleteSession($1) },

        // Schemas and aggregates (master key).
        Route(.get, "/schemas", .master) { try await $0.allSchemas($1) },
        Route(.post, "/schemas", .master) { try await $0.createSchema($1) },
        Route(.get, "/schemas/:className", .master) { try await $0.getSchema($1) },
        Route(.post, "/schemas/:className", .master) { try await $0.createSchema($1) },
        Route(.put, "/schemas/:className", .master) { try await $0.updateSchema($1) },
        Route(.delete, "/schemas/:className", .master) { try await $0.deleteSchema($1) },
        Route(.get, "/aggregate/:className", .master) { try await $0.aggregate($1) },

        Route(.post, "/batch", .client) { try await $0.batch($1) },

        // Server-side logic (ParseRoutes+Cloud.swift): an embedding program's functions, and
        // Parse Config.
        Route(.post, "/functions/:name", .client) { try await $0.callFunction($1) },
        Route(.post, "/jobs", .master) { try await $0.startJob($1) },
        Route(.post, "/jobs/:name", .master) { try await $0.startJob($1) },
        Route(.get, "/hooks/functions", .master) { try await $0.listFunctionHooks($1) },
        Route(.post, "/hooks/functions", .master) { try await $0.createHook($1) },
        Route(.get, "/hooks/functions/:functionName", .master) { try await $0.getHook($1) },
        Route(.put, "/hooks/functions/:functionName", .master) { try await $0.updateHook($1) },
        Route(.delete, "/hooks/functions/:functionName", .master) { try await $0.deleteHook($1) },
        Route(.get, "/hooks/triggers", .master) { try await $0.listTriggerHooks($1) },
        Route(.post, "/hooks/triggers", .master) { try await $0.createHook($1) },
        Route(.get, "/hooks/triggers/:className/:triggerName", .master) { try await $0.getHook($1) },
        Route(.put, "/hooks/triggers/:className/:triggerName", .master) { try await $0.updateHook($1) },
        Route(.delete, "/hooks/triggers/:className/:triggerName", .master) { try await $0.deleteHook($1) },
        Route(.get, "/config", .client) { try await $0.getConfig($1) },
        Route(.put, "/config", .master) { try await $0.updateConfig($1) },

        // What the SDKs and the dashboard call: analytics (accepted, not stored) and server info.
        Route(.post, "/events/:name", .client) { try await $0.event($1) },
        Route(.get, "/serverInfo", .master) { try await $0.serverInfo($1) },

        // Files (ParseRoutes+Files.swift). The upload's body is the file, streamed to the store,
        // never JSON; downloads need no key, as in Parse (names are unguessable).
        Route(.post, "/files", .client, body: .none) { _, _ in throw ParseError(.invalidFileName, "Filename not provided.") },
        Route(raw: .post, "/files/:filename", .client, body: .stream) { try await $0.uploadFile($1, $2) },
        Route(raw: .get, "/files/:appId/:filename", .open) { try await $0.serveFile($1, $2) }.answeringHEAD(),
        Route(raw: .delete, "/files/:filename", .master) { try await $0.deleteFile($1, $2) },

        // Served at the host's root, not under the mount path (ParseResponder.mounted): what an iOS
        // or Android app on the site's domain checks before it uses the site's passkeys.
        Route(.get, "/.well-known/apple-app-site-association", .open) { try await $0.appleAppSiteAssociation($1) },
        Route(.get, "/.well-known/assetlinks.json", .open) { try await $0.assetLinks($1) },

        // Pages opened from emailed links (HTML; no application id header, form bodies).
        Route(page: .get, "/apps/rooftop.css") { pages, _ in pages.stylesheet() },
        Route(page: .get, "/apps/rooftop.js") { pages, _ in pages.script() },
        Route(page: .get, "/apps/rooftop-passkeys.js") { pages, _ in pages.script(PageMarkup.passkeyScript) },
        Route(page: .get, "/apps/:asset") { pages, request in pages.asset(request) },
        Route(page: .get, "/apps/:appId/verify_email") { try await $0.verifyEmail($1) },
        Route(page: .get, "/apps/:appId/passkeys") { pages, request in pages.passkeyPage(request) },
        Route(page: .post, "/apps/:appId/resend_verification_email", body: .form(16_384)) { try await $0.resendVerification($1) },
        Route(page: .get, "/apps/:appId/request_password_reset") { try await $0.resetForm($1) },
        Route(page: .post, "/apps/:appId/request_password_reset", body: .form(16_384)) { try await $0.resetPassword($1) },
        Route(page: .get, "/apps/:appId/forgot_password") { try await $0.forgotPasswordForm($1) },
        Route(page: .post, "/apps/:appId/forgot_password", body: .form(16_384), limitAs: "/requestPasswordReset", account: .email) {
            try await $0.forgotPassword($1)
        },
    ]

    static let index = RouteIndex(table)
}
