import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import RooftopCore
import RooftopHTTP
import RooftopServices
import RooftopTesting
import Testing

/// Every failure is rendered by one function: the same error is the same bytes on every route,
/// and every answer is private (`Cache-Control: no-store`).
@Suite struct ErrorRenderingTests: LiveServerTest {
    struct RawReply {
        let status: Int
        let body: String
        let headers: HTTPFields
    }

    func raw(
        _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, body: String? = nil, master: Bool = false,
        headers extra: HTTPFields = [:]
    ) async throws -> RawReply {
        var headers = extra
        headers[HTTPField.Name("X-Parse-Application-Id")!] = headers[HTTPField.Name("X-Parse-Application-Id")!] ?? testAppId
        if master { headers[HTTPField.Name("X-Parse-Master-Key")!] = testMasterKey }
        return try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }) {
            RawReply(status: Int($0.status.code), body: String(buffer: $0.body), headers: $0.headers)
        }
    }

    /// A wrong password, an unknown user and non-string credentials are the same bytes, every
    /// time and through every route that logs in (the key order once told them apart).
    @Test func loginFailuresAreByteIdentical() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let signUp = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"correct horse"}"#)
            #expect(signUp.status == 201)
            let expected = #"{"code":101,"error":"Invalid username/password."}"#
            var bodies: [String] = []
            for _ in 0..<5 {
                bodies.append(try await raw(client, .post, "/parse/login", body: #"{"username":"ana","password":"wrong horse"}"#).body)
                bodies.append(try await raw(client, .post, "/parse/login", body: #"{"username":"nobody","password":"wrong horse"}"#).body)
                bodies.append(try await raw(client, .post, "/parse/login", body: #"{"username":{"$ne":null},"password":"x"}"#).body)
                bodies.append(try await raw(client, .get, "/parse/login?username=nobody&password=x").body)
                bodies.append(try await raw(client, .post, "/parse/verifyPassword", body: #"{"username":"ana","password":"wrong horse"}"#).body)
            }
            #expect(Set(bodies) == [expected])
            let batch = try await raw(
                client, .post, "/parse/batch",
                body: #"{"requests":[{"method":"POST","path":"/parse/login","body":{"username":"ana","password":"no"}}]}"#)
            #expect(batch.body == "[{\"error\":\(expected)}]")
        }
    }

    /// One error code reads the same on every route that raises it.
    @Test func sameErrorSameBytesAcrossRoutes() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let notFound = #"{"code":101,"error":"Object not found."}"#
            for uri in ["/parse/classes/Note/abcdefghij", "/parse/users/abcdefghij", "/parse/roles/abcdefghij", "/parse/classes/Note/.."] {
                let reply = try await raw(client, .get, uri)
                #expect(reply.status == 404, "\(uri)")
                #expect(reply.body == notFound, "\(uri)")
            }
            let viaMethod = try await raw(client, .post, "/parse/classes/Note/abcdefghij", body: #"{"_method":"GET"}"#)
            #expect(viaMethod.body == notFound)
            let unauthorized = try await raw(client, .get, "/parse/classes/Note", headers: [HTTPField.Name("X-Parse-Application-Id")!: "wrong"])
            #expect(unauthorized.status == 403)
            #expect(unauthorized.body == #"{"error":"unauthorized: X-Parse-Application-Id is missing or wrong"}"#)
            let missing = try await client.execute(uri: "/parse/classes/Note", method: .get) {
                RawReply(status: Int($0.status.code), body: String(buffer: $0.body), headers: $0.headers)
            }
            #expect(missing.status == 403)
            #expect(missing.body == #"{"error":"unauthorized: X-Parse-Application-Id is missing or wrong"}"#)
            let master = try await raw(client, .get, "/parse/schemas")
            #expect(master.status == 403)
            #expect(master.body == #"{"error":"unauthorized: master key is required"}"#)
            let wrongMaster = try await raw(client, .get, "/parse/schemas", headers: [HTTPField.Name("X-Parse-Master-Key")!: "not-the-key"])
            #expect(wrongMaster.status == 403)
            #expect(wrongMaster.body == #"{"error":"unauthorized: the master key is wrong"}"#)
            // Inside a batch, the same words.
            let batched = try await raw(
                client, .post, "/parse/batch", body: #"{"requests":[{"method":"GET","path":"/parse/schemas"}]}"#,
                headers: [HTTPField.Name("X-Parse-Master-Key")!: "not-the-key"])
            #expect(batched.body.contains("unauthorized: the master key is wrong"), "\(batched.body)")
            let outside = try await raw(client, .get, "/elsewhere")
            #expect(outside.status == 404)
            #expect(outside.body == #"{"error":"Not found."}"#)
        }
    }

    /// Too large is 413 with Parse's 116 on the API and on the hosted pages' forms (whose 16 KiB
    /// limit once answered 500).
    @Test func oversizedBodiesAre413Everywhere() async throws {
        try await withServer(configure: { _, http in http.maxBodySize = 4096 }) { (client: any TestClientProtocol) async throws in
            let tooLarge = #"{"code":116,"error":"Request body is too large."}"#
            let big = #"{"title":""# + String(repeating: "x", count: 5000) + #""}"#
            let api = try await raw(client, .post, "/parse/classes/Note", body: big)
            #expect(api.status == 413)
            // The API's JSON bodies are bounded by a setting: the answer names it.
            #expect(
                api.body
                    == #"{"code":116,"error":"Request body is too large: the limit is 4096 bytes (the maxBodySize setting, ROOFTOP_MAX_BODY_SIZE)."}"#
            )
            let form = "token=abc&new_password=" + String(repeating: "y", count: 20_000)
            for path in ["request_password_reset", "resend_verification_email"] {
                let page = try await raw(
                    client, .post, "/parse/apps/\(testAppId)/\(path)", body: form, headers: [.contentType: "application/x-www-form-urlencoded"])
                #expect(page.status == 413, "\(path)")
                #expect(page.body == tooLarge, "\(path)")
            }
        }
    }

    /// Every API answer — success, error, preflight, batch, health, outside the mount path — is
    /// `no-store`, so no shared or client cache keeps one user's data for another.
    @Test func everyAnswerIsNoStore() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let created = try await call(client, .post, "/parse/classes/Note", body: #"{"title":"a"}"#)
            let id = created.json["objectId"]?.stringValue ?? ""
            let replies = [
                try await raw(client, .get, "/parse/classes/Note/\(id)"),
                try await raw(client, .get, "/parse/classes/Note"),
                try await raw(client, .get, "/parse/classes/Note/abcdefghij"),
                try await raw(client, .options, "/parse/classes/Note"),
                try await raw(client, .get, "/parse/health"),
                try await raw(client, .post, "/parse/batch", body: #"{"requests":[]}"#),
                try await raw(client, .get, "/parse/users/me", headers: [HTTPField.Name("X-Parse-Session-Token")!: "r:nope"]),
                try await raw(client, .get, "/parse/nowhere"),
                try await raw(client, .get, "/elsewhere"),
                try await raw(client, .get, "/parse/apps/\(testAppId)/verify_email?token=x"),
            ]
            for reply in replies {
                #expect(reply.headers[.cacheControl] == "no-store", "\(reply.status) \(reply.body)")
            }
        }
    }
}
