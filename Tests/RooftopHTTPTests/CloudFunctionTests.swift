import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopServer
import RooftopTesting
import Testing

/// `POST /functions/:name`: an embedding program's Swift functions, with Parse's answers and
/// error rules, over real HTTP on the run's database.
@Suite struct CloudFunctionTests: LiveServerTest {
    /// An error a handler throws that is not a `ParseError`: its text must never reach a client.
    struct SecretFailure: Error, CustomStringConvertible {
        var description: String { "stack trace: /srv/secret/path.swift:42" }
    }

    /// Signs `name` up: (objectId, session token).
    func signUp(_ client: any TestClientProtocol, _ name: String) async throws -> (String, String) {
        let reply = try await call(client, .post, "/parse/users", body: #"{"username":"\#(name)","password":"a long password 1"}"#)
        try #require(reply.status == 201, "\(reply.json)")
        return (reply.json["objectId"]?.stringValue ?? "", reply.json["sessionToken"]?.stringValue ?? "")
    }

    static var cloud: CloudCode {
        var cloud = CloudCode()
        // Echoes what the handler was told about its request.
        cloud.define("whoami") { request in
            [
                "params": .object(request.params), "userId": request.userId.map(JSON.string) ?? .null, "isMaster": .bool(request.isMaster),
                "installationId": request.installationId.map(JSON.string) ?? .null, "ip": request.ip.map(JSON.string) ?? .null,
                "headers": .object(request.headers.mapValues(JSON.string)),
            ]
        }
        cloud.define("custom") { _ in throw ParseError(ParseError.Code(3001), "Out of stock.") }
        cloud.define("crash") { _ in throw SecretFailure() }
        cloud.define(
            "signUpSurvey",
            rules: FunctionRules(
                requireUser: true,
                fields: [
                    "survey": FieldRule(.object, required: true), "level": FieldRule(.number, options: [0, 1, 2]),
                    "source": FieldRule(.string, default: "app"),
                ])
        ) { request in
            ["source": request.params["source"] ?? .null]
        }
        cloud.define("admin", rules: FunctionRules(requireMaster: true)) { _ in "ok" }
        // Writes as the caller, then as the master key, to show which rules each one meets.
        cloud.define("touch") { request in
            let id = request.params["id"]?.stringValue ?? ""
            do {
                try await request.objects.update("Note", id, ["touched": true], as: .caller)
                return "as caller"
            } catch let error as ParseError where error.code == .objectNotFound {
                try await request.objects.update("Note", id, ["touchedBy": "server"], as: .master)
                return "as master"
            }
        }
        cloud.define("me") { request in .object(try await request.user()) }
        return cloud
    }

    @Test func aFunctionGetsItsRequestAndAnswersResult() async throws {
        try await withServer(cloud: Self.cloud) { (client: any TestClientProtocol) async throws in
            let (userId, token) = try await signUp(client, "ana")
            let reply = try await call(
                client, .post, "/parse/functions/whoami", body: #"{"survey":{"a":1},"tags":["x"]}"#,
                headers: ["X-Parse-Session-Token": token, "X-Parse-Installation-Id": "3f2504e0-4f89-11d3-9a0c-0305e82c3301", "X-Trace": "t1"])
            #expect(reply.status == 200)
            let result = try #require(reply.json["result"])
            #expect(result["params"] == ["survey": ["a": 1], "tags": ["x"]])
            #expect(result["userId"] == .string(userId))
            #expect(result["isMaster"] == false)
            #expect(result["installationId"] == "3f2504e0-4f89-11d3-9a0c-0305e82c3301")
            #expect(result["ip"] == "127.0.0.1")
            #expect(result["headers"]?["x-trace"] == "t1")

            // The master key is a right the handler is told of, never a header it can read.
            let master = try await call(client, .post, "/parse/functions/whoami", body: "{}", master: true)
            #expect(master.json["result"]?["isMaster"] == true)
            #expect(master.json["result"]?["headers"]?["x-parse-master-key"] == nil)
            #expect(master.json["result"]?["userId"] == .null)

            // The caller's user, read for the handler.
            let me = try await call(client, .post, "/parse/functions/me", body: "{}", headers: ["X-Parse-Session-Token": token])
            #expect(me.json["result"]?["username"] == "ana")
            #expect(me.json["result"]?["password"] == nil)
        }
    }

    @Test func errorsFollowParse() async throws {
        try await withServer(cloud: Self.cloud) { (client: any TestClientProtocol) async throws in
            let unknown = try await call(client, .post, "/parse/functions/nothing", body: "{}")
            #expect(unknown.status == 400)
            #expect(unknown.json == ["code": 141, "error": #"Invalid function: "nothing""#])

            // A ParseError the handler throws reaches the client as is, custom codes too.
            let custom = try await call(client, .post, "/parse/functions/custom", body: "{}")
            #expect(custom.status == 400)
            #expect(custom.json == ["code": 3001, "error": "Out of stock."])

            // Anything else is 141 with a generic message: no internal detail leaks.
            let crash = try await call(client, .post, "/parse/functions/crash", body: "{}")
            #expect(crash.status == 400)
            #expect(crash.json == ["code": 141, "error": "The function failed."])

            // Without the application id, nothing runs.
            let keyless = try await call(client, .post, "/parse/functions/whoami", body: "{}", appId: "wrong")
            #expect(keyless.status == 403)
        }
    }

    @Test func rulesRunBeforeTheHandler() async throws {
        try await withServer(cloud: Self.cloud) { (client: any TestClientProtocol) async throws in
            func survey(_ body: String, token: String?) async throws -> Reply {
                try await call(
                    client, .post, "/parse/functions/signUpSurvey", body: body, headers: token.map { ["X-Parse-Session-Token": $0] } ?? [:])
            }
            let signedOut = try await survey(#"{"survey":{}}"#, token: nil)
            #expect(signedOut.json == ["code": 142, "error": "Validation failed. Please login to continue."])
            let (_, token) = try await signUp(client, "bo")
            #expect(try await survey("{}", token: token).json == ["code": 142, "error": "Validation failed. Please specify data for survey."])
            #expect(
                try await survey(#"{"survey":null}"#, token: token).json == [
                    "code": 142, "error": "Validation failed. Please specify data for survey.",
                ])
            // An operator where an object belongs is just a value of the wrong type.
            #expect(
                try await survey(#"{"survey":"{\"$gt\":\"\"}"}"#, token: token).json
                    == ["code": 142, "error": "Validation failed. Invalid type for survey. Expected: object"])
            #expect(
                try await survey(#"{"survey":{},"level":7}"#, token: token).json
                    == ["code": 142, "error": "Validation failed. Invalid option for level. Expected: 0, 1, 2"])
            // Defaults fill missing parameters.
            let ok = try await survey(#"{"survey":{},"level":1}"#, token: token)
            #expect(ok.json == ["result": ["source": "app"]])
            let given = try await survey(#"{"survey":{},"source":"web"}"#, token: token)
            #expect(given.json == ["result": ["source": "web"]])

            let admin = try await call(client, .post, "/parse/functions/admin", body: "{}", headers: ["X-Parse-Session-Token": token])
            #expect(admin.json == ["code": 142, "error": "Validation failed. Master key is required to complete this request."])
            #expect(try await call(client, .post, "/parse/functions/admin", body: "{}", master: true).json == ["result": "ok"])
        }
    }

    /// The same function through `/batch` meets the same rules.
    @Test func batchItemsCallFunctionsWithTheSameRules() async throws {
        try await withServer(cloud: Self.cloud) { (client: any TestClientProtocol) async throws in
            let (_, token) = try await signUp(client, "cy")
            let body = #"""
                {"requests":[{"method":"POST","path":"/parse/functions/signUpSurvey","body":{"survey":{}}},
                             {"method":"POST","path":"/parse/functions/admin","body":{}}]}
                """#
            let reply = try await call(client, .post, "/parse/batch", body: body, headers: ["X-Parse-Session-Token": token])
            #expect(reply.status == 200)
            #expect(reply.json.arrayValue?.first?["success"] == ["result": ["source": "app"]])
            let second = reply.json.arrayValue?.last
            #expect(second?["error"]?["code"] == 142)
        }
    }

    /// A handler's writes as the caller meet the object's ACL; as the master key they do not.
    @Test func handlersActAsTheCallerUnlessTheySayMaster() async throws {
        try await withServer(cloud: Self.cloud) { (client: any TestClientProtocol) async throws in
            let (owner, _) = try await signUp(client, "dee")
            let (_, otherToken) = try await signUp(client, "eve")
            let note = try await call(
                client, .post, "/parse/classes/Note", body: #"{"text":"mine","ACL":{"\#(owner)":{"read":true,"write":true}}}"#, master: true)
            let id = try #require(note.json["objectId"]?.stringValue)
            let reply = try await call(
                client, .post, "/parse/functions/touch", body: #"{"id":"\#(id)"}"#, headers: ["X-Parse-Session-Token": otherToken])
            #expect(reply.json == ["result": "as master"])
            let stored = try await call(client, .get, "/parse/classes/Note/\(id)", master: true)
            #expect(stored.json["touched"] == nil)
            #expect(stored.json["touchedBy"] == "server")
        }
    }

    /// A function that outlives its limit fails its request with 124; the handler is cancelled.
    @Test func aSlowFunctionTimesOutOnTheClock() async throws {
        let clock = TestClock()
        let cancelled = LockedBox(false)
        var cloud = CloudCode()
        cloud.define("slow", timeout: .seconds(5)) { _ in
            do {
                try await Task.sleep(for: .seconds(3600))
            } catch {
                cancelled.withLock { $0 = true }
                throw error
            }
            return "late"
        }
        try await withServer(clock: clock, cloud: cloud) { (client: any TestClientProtocol) async throws in
            let before = clock.sleeping
            async let reply = call(client, .post, "/parse/functions/slow", body: "{}")
            try await clock.untilSleeping(before + 1)
            clock.advance(by: .seconds(5))
            let answer = try await reply
            #expect(answer.status == 400)
            #expect(answer.json == ["code": 124, "error": "The server-side handler did not finish in time."])
            try await waitUntil { cancelled.withLock { $0 } }
        }
    }

    /// Hostile names and bodies: a clear error, never a crash.
    @Test func hostileCallsAreRefused() async throws {
        try await withServer(cloud: Self.cloud) { (client: any TestClientProtocol) async throws in
            let huge = String(repeating: "a", count: 10_000)
            let long = try await call(client, .post, "/parse/functions/\(huge)", body: "{}")
            #expect(long.json["code"] == 141)
            #expect((long.json["error"]?.stringValue?.count ?? .max) < 200)
            let nul = try await call(client, .post, "/parse/functions/who%00ami", body: "{}")
            #expect(nul.json["code"] == 141)
            let array = try await call(client, .post, "/parse/functions/whoami", body: "[1,2]")
            #expect(array.json["code"] == 107)
            let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
            let nested = try await call(client, .post, "/parse/functions/whoami", body: #"{"a":\#(deep)}"#)
            #expect(nested.status == 400)
            // Other methods are not the function route.
            let get = try await call(client, .get, "/parse/functions/whoami")
            #expect(get.json["code"] == 107)
        }
    }
}
