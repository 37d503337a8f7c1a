import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopConsole
import RooftopCore
import RooftopMail
import RooftopServices
import RooftopStorage
import RooftopTesting
import Testing

extension ConsoleUsersTests {
    @Test func ownersEditFieldsThroughTheAccountRules() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: password, role: .owner, totp: false)
            let ana = try await signUp(client, "ana", email: "ana@example.com")
            _ = try await signUp(client, "bob", email: "bob@example.com")
            let custom = #"{"nickname":"Annie","age":30,"vip":false,"tags":["a"],"secretNote":{"x":1}}"#
            #expect(try await call(client, .put, "/parse/users/\(ana.id)", body: custom, master: true).status == 200)
            let session = try #require(try await consoleSignIn(client, "ops", password).session)
            let cookies = ["rooftop_console": session]
            let page = try await consoleRequest(client, .get, "/console/users/\(ana.id)", cookies: cookies)
            var form = Self.editForm(page)
            #expect(form["username"] == "ana" && form["email"] == "ana@example.com" && form["emailVerified"] == nil)
            #expect(form["field.nickname"] == "Annie" && form["field.age"] == "30" && form["field.vip"] == nil)
            #expect(form["field.tags"] == nil && form["field.secretNote"] == nil && form["field.authData"] == nil, "simple types only")
            #expect(!page.html.contains("name=\"password\"") && !page.html.contains("_hashed_password"))
            // Unchanged, nothing is written.
            let same = try await consoleRequest(client, .post, "/console/users/\(ana.id)/edit", cookies: cookies, form: form)
            #expect(same.html.contains("Nothing changed."))
            form["username"] = "Ana2"
            form["emailVerified"] = "on"
            form["field.nickname"] = #"{"__op":"Delete"}"#
            form["field.age"] = "31.5"
            form["field.vip"] = "on"
            // Fields the form never offers are ignored, not written.
            form["password"] = "new password 1"
            form["field._hashed_password"] = "x"
            form["field.tags"] = "b"
            form["sessionToken"] = "r:forged"
            let saved = try await consoleRequest(client, .post, "/console/users/\(ana.id)/edit", cookies: cookies, form: form)
            #expect(saved.status == 200)
            #expect(saved.html.contains("The user was saved."))
            let stored = try await call(client, .get, "/parse/users/\(ana.id)", master: true).json
            #expect(stored["username"] == "Ana2" && stored["emailVerified"] == true && stored["vip"] == true)
            #expect(stored["nickname"] == #"{"__op":"Delete"}"#, "a string field takes the text literally")
            #expect(stored["age"] == 31.5 && stored["tags"] == ["a"])
            #expect(try await me(client, ana.token)["username"] == "Ana2", "the password was not changed: the session lives")
            let login = try await call(client, .post, "/parse/login", body: #"{"username":"ana2","password":"user password 1"}"#)
            #expect(login.status == 200, "the new name signs in, compared as logins compare")
            let events = try await call(client, .get, "/parse/classes/_Audit?where=%7B%22type%22:%22admin.user.updated%22%7D", master: true)
            let event = try #require(events.json["results"]?.arrayValue?.first)
            #expect(event["admin"] == "ops" && event["userId"]?.stringValue == ana.id)
            // A refusal shows the API's message and changes nothing.
            var clash = Self.editForm(try await consoleRequest(client, .get, "/console/users/\(ana.id)", cookies: cookies))
            clash["email"] = "BOB@example.com"
            clash["username"] = "ana3"
            let refused = try await consoleRequest(client, .post, "/console/users/\(ana.id)/edit", cookies: cookies, form: clash)
            #expect(refused.status == 400)
            #expect(refused.html.contains("Account already exists for this email address."))
            var bad = clash
            bad["email"] = "ana@example.com"
            bad["field.age"] = "nan"
            #expect(try await consoleRequest(client, .post, "/console/users/\(ana.id)/edit", cookies: cookies, form: bad).status == 400)
            bad["field.age"] = "31.5"
            bad["username"] = "ana\u{0}x"
            let nul = try await consoleRequest(client, .post, "/console/users/\(ana.id)/edit", cookies: cookies, form: bad)
            #expect(nul.status == 400)
            bad["username"] = ""
            #expect(try await consoleRequest(client, .post, "/console/users/\(ana.id)/edit", cookies: cookies, form: bad).status == 400)
            let after = try await call(client, .get, "/parse/users/\(ana.id)", master: true).json
            #expect(after["username"] == "Ana2" && after["email"] == "ana@example.com" && after["age"] == 31.5)
            // Replayed, the same post changes nothing more.
            let replay = try await consoleRequest(client, .post, "/console/users/\(ana.id)/edit", cookies: cookies, form: form)
            #expect(replay.html.contains("Nothing changed."))
            // Without the session's CSRF token: 403, nothing changed; an unknown user: 404.
            var forged = form
            forged["csrf"] = "wrong"
            forged["username"] = "mallory"
            #expect(try await consoleRequest(client, .post, "/console/users/\(ana.id)/edit", cookies: cookies, form: forged).status == 403)
            #expect(try await consoleRequest(client, .post, "/console/users/AAAAAAAAAA/edit", cookies: cookies, form: form).status == 404)
            #expect(try await call(client, .get, "/parse/users/\(ana.id)", master: true).json["username"] == "Ana2")
        }
    }

    /// A save sends what the admin changed on the page as it was shown: a value the app changed
    /// since then, a field the page did not show, and a string of several lines stay as stored.
    @Test func aSaveChangesOnlyWhatTheAdminChanged() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: password, role: .owner, totp: false)
            let ana = try await signUp(client, "ana", email: "ana@example.com")
            let custom = #"{"nickname":"Annie","vip":false,"bio":"line one\nline two","emailVerified":false}"#
            #expect(try await call(client, .put, "/parse/users/\(ana.id)", body: custom, master: true).status == 200)
            let cookies = ["rooftop_console": try #require(try await consoleSignIn(client, "ops", password).session)]
            let page = try await consoleRequest(client, .get, "/console/users/\(ana.id)", cookies: cookies)
            var form = Self.editForm(page)
            #expect(form["field.bio"] == nil, "a string of several lines is shown, not put in a one-line box")
            #expect(form["orig"]?.contains("Annie") == true)
            // Meanwhile the app changes fields the admin will not touch.
            let meanwhile = #"{"nickname":"Changed by the app","vip":true,"emailVerified":true}"#
            #expect(try await call(client, .put, "/parse/users/\(ana.id)", body: meanwhile, master: true).status == 200)
            form["username"] = "ana2"
            let saved = try await consoleRequest(client, .post, "/console/users/\(ana.id)/edit", cookies: cookies, form: form)
            #expect(saved.html.contains("The user was saved."))
            let stored = try await call(client, .get, "/parse/users/\(ana.id)", master: true).json
            #expect(stored["username"] == "ana2")
            #expect(stored["nickname"] == "Changed by the app" && stored["vip"] == true && stored["emailVerified"] == true)
            #expect(stored["bio"] == "line one\nline two")
            // A form without the page's record of what it showed changes nothing.
            var bare = form
            bare["orig"] = nil
            bare["username"] = "ana3"
            #expect(try await consoleRequest(client, .post, "/console/users/\(ana.id)/edit", cookies: cookies, form: bare).status == 400)
            #expect(try await call(client, .get, "/parse/users/\(ana.id)", master: true).json["username"] == "ana2")
        }
    }

    @Test func readOnlyAdminsSeeNoEditFormAndAreRefused() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "viewer", password: password, role: .readOnly, totp: false)
            let ana = try await signUp(client, "ana")
            let session = try #require(try await consoleSignIn(client, "viewer", password).session)
            let page = try await consoleRequest(client, .get, "/console/users/\(ana.id)", cookies: ["rooftop_console": session])
            #expect(!page.html.contains("/edit\""))
            let csrf = try #require(page.hidden("csrf"))
            let refused = try await consoleRequest(
                client, .post, "/console/users/\(ana.id)/edit", cookies: ["rooftop_console": session], form: ["csrf": csrf, "username": "x"])
            #expect(refused.status == 403)
            #expect(try await me(client, ana.token)["username"] == "ana")
        }
    }
}
