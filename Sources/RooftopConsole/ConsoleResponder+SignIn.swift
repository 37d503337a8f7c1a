import Foundation
import HTTPTypes
import Hummingbird
import RooftopHTTP
import RooftopServices

/// The sign-in page: a login form protected by a double-submit token that only the server can
/// make (no session exists yet; see `ConsoleSessions.newSignInToken`), the same-origin check every
/// console POST has, the per-address rate limit, the per-admin lockout and the TOTP code.
extension ConsoleResponder {
    func loginPage(_ visit: inout ConsoleVisit, error: String? = nil, status: HTTPResponse.Status = .ok) async throws -> Response {
        let token = sessions.newSignInToken()
        // Over plain http to another machine, the password and the session cookie travel in
        // clear: say so where the admin is about to type them.
        let plain = !visit.secure && !AddressRange.isLoopbackHost(visit.request.head.authority ?? "")
        // Before the first admin, say how to create one (as `rooftop serve`'s banner does).
        let noAdmin = try await !admins.exist()
        var response = visit.page(
            "login", title: visit.word("signIn"), values: ["loginCsrf": token, "name": visit.form["name"] ?? "", "noAdmin": noAdmin],
            status: status,
            notice: plain ? visit.word("plainHTTP") : nil, error: error)
        response.headers.append(HTTPField(name: .setCookie, value: visit.cookie("rooftop_console_login", token)))
        return response
    }

    func logIn(_ visit: inout ConsoleVisit, ip: String?) async throws -> Response {
        guard let expected = visit.cookie(named: "rooftop_console_login"), ConsoleSessions.csrfMatches(visit.form["csrf"], expected),
            sessions.isSignInToken(expected)
        else {
            return visit.message(.forbidden, "badToken", status: .forbidden)
        }
        do {
            try await limiter.check(RateLimiter.Request(method: "POST", path: "/console-login", clientIP: ip))
        } catch let limited as RateLimiter.Limited {
            var response = try await loginPage(&visit, error: visit.word("tooMany"), status: .tooManyRequests)
            response.headers[.retryAfter] = String(limited.retryAfter)
            return response
        }
        let name = visit.form["name"] ?? ""
        let outcome = try await admins.signIn(name: name, password: visit.form["password"] ?? "", code: visit.form["code"])
        switch outcome {
        case .success(let admin):
            let (token, session) = try await sessions.open(for: name)
            visit.admin = (name, admin.role, session.csrf)
            await accounts.audit.record(.adminLogin, userId: nil, detail: name, origin: visit.origin)
            var response = Self.redirect(visit.base + "/users")
            response.headers.append(HTTPField(name: .setCookie, value: visit.cookie("rooftop_console", token)))
            response.headers.append(HTTPField(name: .setCookie, value: visit.cookie("rooftop_console_login", "", maxAge: 0)))
            return response
        case .failure(let failure):
            let reason: String
            let message: String
            switch failure {
            case .invalid: (reason, message) = ("wrong name or password", "invalidLogin")
            // The page says the same as for a wrong password: "locked" would tell that the name
            // is an admin's (unknown names never lock). The audit log keeps the difference.
            case .locked, .lockedNow: (reason, message) = ("locked", "invalidLogin")
            case .codeNeeded: (reason, message) = ("code needed", "codeNeeded")
            case .codeRejected: (reason, message) = ("wrong or reused code", "invalidLogin")
            }
            // The name as typed, bounded: it may be anything.
            let typed = String(name.prefix(64)).replacingOccurrences(of: "\u{0}", with: "\u{FFFD}")
            await accounts.audit.record(.adminLoginFailed, userId: nil, reason: reason, detail: typed, origin: visit.origin)
            if failure == .lockedNow { await accounts.audit.record(.adminLockout, userId: nil, detail: typed, origin: visit.origin) }
            return try await loginPage(&visit, error: visit.word(message), status: failure == .codeNeeded ? .ok : .unauthorized)
        }
    }
}
