import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import RooftopConsole
import RooftopCore
import RooftopHTTP
import RooftopServer
import RooftopServices
import RooftopStorage
import RooftopTesting
import Synchronization
import Testing

/// The console's route table and its one failure renderer, over real HTTP against a real
/// database: an unknown URL asks as much as a real page (no session: the sign-in page; a POST: a
/// CSRF token and the owner's role) before it is a 404, and a page that fails is a 500 that
/// names no cause, logged through the server's logger with the cause.
@Suite struct ConsoleRouteTests: LiveServerTest {
    let password = "console passphrase 1"

    @Test func unknownURLsAreRefusedLikeRealPagesBeforeTheyAre404() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            let admins = consoleAdmins(try stores.store)
            try await admins.create(name: "owner", password: password, role: .owner, totp: false)
            try await admins.create(name: "viewer", password: password, role: .readOnly, totp: false)
            let same = ["Sec-Fetch-Site": "same-origin"]

            // No session: a GET goes to the sign-in page, a POST is refused, known URL or not.
            for path in ["/console/users", "/console/no-such-page", "/console/users/abc/no-such-view"] {
                let page = try await consoleRequest(client, .get, path)
                #expect(page.status == 303, "\(path)")
                #expect(page.headers[.location] == "/console/login", "\(path)")
            }
            for path in ["/console/users/abc/unlock", "/console/users/abc/no-such-action"] {
                #expect(try await consoleRequest(client, .post, path, form: [:], headers: same).status == 403, "\(path)")
            }

            let viewer = try #require(try await consoleSignIn(client, "viewer", password).session)
            let viewerCSRF = try await consoleCSRF(client, session: viewer)
            #expect(try await consoleRequest(client, .get, "/console/no-such-page", cookies: ["rooftop_console": viewer]).status == 404)
            #expect(try await consoleRequest(client, .get, "/console/data/_User/abc/def/ghi", cookies: ["rooftop_console": viewer]).status == 404)
            // A read-only admin is refused a change before the URL is looked at.
            let refused = try await consoleRequest(
                client, .post, "/console/users/abc/no-such-action", cookies: ["rooftop_console": viewer], form: ["csrf": viewerCSRF],
                headers: same)
            #expect(refused.status == 403)
            // A method the console does not answer.
            #expect(try await consoleRequest(client, .delete, "/console/users", cookies: ["rooftop_console": viewer]).status == 405)

            let owner = try #require(try await consoleSignIn(client, "owner", password).session)
            let ownerCSRF = try await consoleCSRF(client, session: owner)
            for path in ["/console/users/abc/no-such-action", "/console/roles/abc/add-nothing", "/console/data/_User/abc/no-such-action"] {
                let missing = try await consoleRequest(
                    client, .post, path, cookies: ["rooftop_console": owner], form: ["csrf": ownerCSRF], headers: same)
                #expect(missing.status == 404, "\(path)")
            }
            // A route's parameter is one segment: an action's choices are the table's, no other.
            let unlock = try await consoleRequest(
                client, .post, "/console/users/abc/unlock", cookies: ["rooftop_console": owner], form: ["csrf": ownerCSRF], headers: same)
            #expect(unlock.status == 404, "no such user")
            #expect(unlock.html.contains(ConsoleTextProbe.noUser), "the users page's own 404, reached through the table")
        }
    }

    @Test func aFailingPageIsA500ThatNamesNoCauseAndIsLogged() async throws {
        let stores = StoreBox()
        let log = CapturedLog()
        let failing: @Sendable (FindRequest) throws -> Void = { request in
            if request.className == .user { throw StorageError.unavailable("SQLite error 10: disk I/O error - while reading _User") }
        }
        try await withServer(wrap: { stores.keep(ObservedStore(inner: $0, beforeFind: failing)) }, dependencies: { $0.logger = log.logger }) {
            client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: password, role: .readOnly, totp: false)
            let session = try #require(try await consoleSignIn(client, "ops", password).session)
            let page = try await consoleRequest(client, .get, "/console/users?q=ana", cookies: ["rooftop_console": session])
            #expect(page.status == 500)
            #expect(!page.html.contains("disk I/O"), "the cause stays in the log")
            #expect(page.headers[.contentSecurityPolicy] == PageHeaders.contentSecurityPolicy, "a failure carries the page headers too")
            #expect(log.messages.contains("console page failed"), "\(log.messages)")
            let details = try #require(log.metadata.withLock { $0["console page failed"] })
            #expect(details["path"] == "/console/users")
            #expect(details["admin"] == "ops")
            #expect(details["error"]?.contains("disk I/O error") == true)
            #expect(log.entries.withLock { $0.contains { $0.level == .error && $0.message == "console page failed" } })
        }
    }
}

/// Words of the console's English pages the route tests look for.
enum ConsoleTextProbe {
    static let noUser = "There is no such user."
}
