import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import RooftopCore
import RooftopMail
import RooftopServices
import RooftopTesting
import Testing

/// Password reset end to end: the request, the mail received by a real SMTP server, the hosted
/// form (GET never consumes), policy errors on the form, the one POST that changes the password.
@Suite struct PasswordResetTests: LiveServerTest {
    func signUp(_ client: any TestClientProtocol, _ name: String = "ana") async throws -> String {
        let reply = try await call(
            client, .post, "/parse/users", body: #"{"username":"\#(name)","password":"old password","email":"\#(name)@example.com"}"#)
        return try #require(reply.json["sessionToken"]?.stringValue)
    }

    func requestReset(_ client: any TestClientProtocol, _ email: String, headers: [String: String] = [:]) async throws -> Reply {
        try await call(client, .post, "/parse/requestPasswordReset", body: #"{"email":"\#(email)"}"#, headers: headers)
    }

    /// Signs up ana, asks for a reset, and returns the token from the mail.
    func resetToken(_ client: any TestClientProtocol, _ server: SMTPTestServer) async throws -> String {
        _ = try await signUp(client)
        _ = try await requestReset(client, "ana@example.com")
        return String(try await link(server, message: 1).full.split(separator: "=").last ?? "")
    }

    func login(_ client: any TestClientProtocol, _ password: String, name: String = "ana") async throws -> Int {
        try await call(client, .post, "/parse/login", body: #"{"username":"\#(name)","password":"\#(password)"}"#).status
    }

    @Test func resetThroughTheHostedForm() async throws {
        let server = try SMTPTestServer()
        let (mail, accounts) = mailSetup(server, verify: false)
        try await withServer(accounts: accounts, mail: mail) { client in
            let session = try await signUp(client)
            // Known and unknown addresses get the same answer; only the known one gets mail.
            let known = try await requestReset(client, "ana@example.com", headers: ["Host": "evil.example", "X-Forwarded-Host": "evil.example"])
            let unknown = try await requestReset(client, "nobody@example.com")
            #expect(known.status == 200 && known.json == [:])
            #expect(unknown.status == 200 && unknown.json == [:])
            let (full, path) = try await link(server, message: 1)
            #expect(full.hasPrefix("https://public.example/parse/apps/\(testAppId)/request_password_reset?token="))
            #expect(!server.messages()[0].contains("evil.example"))
            await mail.queue.drain()
            #expect(server.messages().count == 1)

            // Opening the form (twice, as a mail scanner might) consumes nothing.
            for _ in 0..<2 {
                let form = try await page(client, .get, path)
                #expect(form.status == 200)
                #expect(form.html.contains("Choose a new password"))
                #expect(form.html.contains("name=\"new_password\""))
                #expect(form.html.contains("autocomplete=\"new-password\""))
                // Script only from our own file: nothing inline can run.
                #expect(form.headers[.contentSecurityPolicy]?.contains("script-src 'self';") == true)
                #expect(form.headers[.contentSecurityPolicy]?.contains("unsafe") == false)
                #expect(!form.html.contains("<script>") && form.html.contains("rooftop.js"))
            }
            // Parse 7's links also carry `username`: still accepted.
            #expect(try await page(client, .get, path + "&username=ana").status == 200)

            let token = String(full.split(separator: "=").last ?? "")
            let action = "/parse/apps/\(testAppId)/request_password_reset"
            let short = try await page(client, .post, action, form: "token=\(token)&new_password=short")
            #expect(short.status == 400)
            #expect(short.html.contains("Password must be at least 8 characters long."))
            #expect(short.html.contains("aria-invalid=\"true\""))
            #expect(try await login(client, "old password") == 200)  // nothing changed yet
            // A context-specific word (the user's own address) is refused in the page's language.
            let own = try await page(client, .post, action, form: "token=\(token)&new_password=ana%40example.com", language: "ja")
            #expect(own.status == 400)
            #expect(own.html.contains("メールアドレスやアプリ名をパスワードにすることはできません。"))
            let ownEnglish = try await page(client, .post, action, form: "token=\(token)&new_password=ana%40example.com1")
            #expect(ownEnglish.html.contains("Password cannot be your email address or the name of this app."))
            #expect(try await login(client, "old password") == 200)

            let done = try await page(client, .post, action, form: "token=\(token)&new_password=new+password+1")
            #expect(done.status == 200 && done.html.contains("Password changed"))
            #expect(try await me(client, session)["code"] == 209)  // every session ended
            #expect(try await login(client, "new password 1") == 200)
            #expect(try await login(client, "old password") == 404)
            #expect(try await page(client, .post, action, form: "token=\(token)&new_password=another+one").status == 400)
            #expect(try await page(client, .get, path).status == 400)
        }
    }

    /// Twenty posts of one token at once, on twenty connections: exactly one password change.
    @Test func concurrentPostsChangeThePasswordOnce() async throws {
        let server = try SMTPTestServer()
        let (mail, accounts) = mailSetup(server, verify: false)
        try await withServer(accounts: accounts, mail: mail) { client in
            let token = try await resetToken(client, server)
            let port = try #require(client.port)
            let requests = (0..<20).map { i in
                let body = "token=\(token)&new_password=password+number+\(i)"
                return "POST /parse/apps/\(testAppId)/request_password_reset HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                    + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            }
            let statuses = await parallelRequests(port: port, requests)
            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
            var working = 0
            for i in 0..<20 where try await login(client, "password number \(i)") == 200 { working += 1 }
            #expect(working == 1)
        }
    }

    /// A newer link, a password change or an email change kills the pending link.
    @Test func linksDieWhenSuperseded() async throws {
        let server = try SMTPTestServer()
        let (mail, accounts) = mailSetup(server, verify: false)
        try await withServer(accounts: accounts, mail: mail) { client in
            let session = try await signUp(client)
            let id = try #require(try await me(client, session)["objectId"]?.stringValue)
            _ = try await requestReset(client, "ana@example.com")
            let first = try await link(server, message: 1).path
            _ = try await requestReset(client, "ANA@example.com")
            let second = try await link(server, message: 2).path
            #expect(try await page(client, .get, first).status == 400)
            #expect(try await page(client, .get, second).status == 200)
            let headers = ["X-Parse-Session-Token": session]
            #expect(try await call(client, .put, "/parse/users/\(id)", body: #"{"password":"changed in app"}"#, headers: headers).status == 200)
            #expect(try await page(client, .get, second).status == 400)

            _ = try await requestReset(client, "ana@example.com")
            let third = try await link(server, message: 3).path
            let fresh = try #require(
                try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"changed in app"}"#).json["sessionToken"]?
                    .stringValue)
            #expect(
                try await call(client, .put, "/parse/users/\(id)", body: #"{"email":"ana@other.example"}"#, headers: ["X-Parse-Session-Token": fresh])
                    .status == 200)
            #expect(try await page(client, .get, third).status == 400)
        }
    }

    /// Parse's XHR mode, and hostile input: operator tokens, markup, a 10,000-character password.
    @Test func xhrModeAndBadInput() async throws {
        let server = try SMTPTestServer()
        let (mail, accounts) = mailSetup(server, verify: false)
        try await withServer(accounts: accounts, mail: mail) { client in
            let token = try await resetToken(client, server)
            let action = "/parse/apps/\(testAppId)/request_password_reset"
            func xhr(_ form: String) async throws -> (Int, String) {
                var headers = HTTPFields()
                headers[.contentType] = "application/x-www-form-urlencoded"
                headers[HTTPField.Name("X-Requested-With")!] = "XMLHttpRequest"
                return try await client.execute(uri: action, method: .post, headers: headers, body: ByteBuffer(string: form)) {
                    (Int($0.status.code), String(buffer: $0.body))
                }
            }
            let long = String(repeating: "x", count: 10_000)
            let (longStatus, longBody) = try await xhr("token=\(token)&new_password=\(long)")
            #expect(longStatus == 400 && longBody.contains(#""code":-1"#) && longBody.contains("at most 256 characters"))
            #expect(try await call(client, .post, "/parse/users", body: #"{"username":"bo","password":"\#(long)"}"#).json["code"] == 142)
            let (okStatus, okBody) = try await xhr("token=\(token)&new_password=brand+new+pass")
            #expect(okStatus == 200 && okBody == "Password successfully reset")
            let (againStatus, againBody) = try await xhr("token=\(token)&new_password=brand+new+pass")
            #expect(againStatus == 400 && againBody.contains(#""code":-1"#))

            for query in ["token[$ne]=x", "token=%5B%22a%22%5D", "token=%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E", "token="] {
                let answer = try await page(client, .get, action + "?" + query)
                #expect(answer.status == 400, "\(query)")
                #expect(!answer.html.contains("<script>alert"))
            }
            #expect(try await call(client, .post, "/parse/requestPasswordReset", body: #"{"email":{"$ne":null}}"#).json["code"] == 125)
            #expect(try await call(client, .post, "/parse/requestPasswordReset", body: #"{}"#).json["code"] == 204)
            #expect(try await login(client, "brand new pass") == 200)
        }
        // Without a link base (no mail), the flow answers 1 as Parse does.
        try await withServer { client in
            let reply = try await requestReset(client, "ana@example.com")
            #expect(reply.status == 500 && reply.json["code"] == 1)
        }
    }

    /// The form and the mail in Japanese.
    @Test func japanesePagesAndMail() async throws {
        let server = try SMTPTestServer()
        let (mail, accounts) = mailSetup(server, verify: false)
        try await withServer(accounts: accounts, mail: mail) { client in
            _ = try await signUp(client)
            _ = try await requestReset(client, "ana@example.com", headers: ["Accept-Language": "ja-JP,ja;q=0.9"])
            let (_, path) = try await link(server, message: 1)
            #expect(FileOutbox.readable(server.messages()[0]).contains("パスワードの再設定"))
            let form = try await page(client, .get, path, language: "ja")
            #expect(form.html.contains("新しいパスワードの設定"))
            #expect(form.html.contains("lang=\"ja\""))
        }
    }
}
