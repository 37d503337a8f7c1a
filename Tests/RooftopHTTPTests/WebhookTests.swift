import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopServer
import RooftopServices
import RooftopTesting
import Testing

/// `/hooks`: functions and triggers served by another program over HTTP (a real receiver on
/// loopback), with Parse's payload and answers, called only on hosts the operator allowed.
@Suite struct WebhookTests: LiveServerTest {
    func settings(_ receiver: WebhookReceiver) -> WebhookSettings {
        var settings = WebhookSettings()
        settings.key = "hook-secret"
        settings.allowedHosts = [receiver.host]
        return settings
    }

    @Test func functionHooksAreRegisteredAndCalledAsParseDoes() async throws {
        let receiver = try await WebhookReceiver.start()
        defer { Task { await receiver.stop() } }
        var cloud = CloudCode()
        cloud.define("inCode") { _ in "swift" }
        try await withServer(cloud: cloud, webhooks: settings(receiver)) { (client: any TestClientProtocol) async throws in
            let hook = #"{"functionName":"greet","url":"\#(receiver.url("/greet"))"}"#
            #expect(try await call(client, .post, "/parse/hooks/functions", body: hook).status == 403)
            let created = try await call(client, .post, "/parse/hooks/functions", body: hook, master: true)
            #expect(created.json == ["functionName": "greet", "url": .string(receiver.url("/greet"))])
            #expect(
                try await call(client, .post, "/parse/hooks/functions", body: hook, master: true).json == [
                    "code": 143, "error": "function name: greet already exists",
                ])
            #expect(try await call(client, .get, "/parse/hooks/functions", master: true).json == [created.json])

            receiver.answer("/greet", #"{"success":{"hello":"ana"}}"#)
            let user = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"a long password 1"}"#)
            let token = try #require(user.json["sessionToken"]?.stringValue)
            let reply = try await call(client, .post, "/parse/functions/greet", body: #"{"n":1}"#, headers: ["X-Parse-Session-Token": token])
            #expect(reply.json == ["result": ["hello": "ana"]])
            let sent = try #require(receiver.calls.last)
            #expect(sent.key == "hook-secret")
            #expect(sent.body["functionName"] == "greet" && sent.body["params"] == ["n": 1] && sent.body["master"] == false)
            #expect(sent.body["user"]?["username"] == "ana" && sent.body["user"]?["objectId"] == user.json["objectId"])
            // The caller's session never leaves the process.
            #expect(sent.body["user"]?["sessionToken"] == nil && sent.body["headers"]?["x-parse-session-token"] == nil)
            #expect(sent.body["headers"]?["x-parse-application-id"] == .string(testAppId))

            // The receiver's refusals and failures.
            receiver.answer("/greet", #"{"error":"Not today."}"#)
            #expect(try await call(client, .post, "/parse/functions/greet", body: "{}").json == ["code": 141, "error": "Not today."])
            receiver.answer("/greet", #"{"error":{"code":3001,"message":"Sold out."}}"#, status: 400)
            #expect(try await call(client, .post, "/parse/functions/greet", body: "{}").json == ["code": 3001, "error": "Sold out."])
            receiver.answer("/greet", "not json")
            #expect(try await call(client, .post, "/parse/functions/greet", body: "{}").json == ["code": 143, "error": "The webhook failed."])
            receiver.answer("/greet", #"{"success":1}"#, status: 500)
            #expect(try await call(client, .post, "/parse/functions/greet", body: "{}").json["code"] == 143)

            // Changed, then removed (by PUT's Delete op, and DELETE): the function is gone.
            let moved = #"{"url":"\#(receiver.url("/greet2"))"}"#
            #expect(
                try await call(client, .put, "/parse/hooks/functions/greet", body: moved, master: true).json["url"]
                    == .string(receiver.url("/greet2")))
            receiver.answer("/greet2", #"{"success":"moved"}"#)
            #expect(try await call(client, .post, "/parse/functions/greet", body: "{}").json == ["result": "moved"])
            #expect(try await call(client, .put, "/parse/hooks/functions/greet", body: #"{"__op":"Delete"}"#, master: true).status == 200)
            #expect(try await call(client, .post, "/parse/functions/greet", body: "{}").json["code"] == 141)
            #expect(
                try await call(client, .delete, "/parse/hooks/functions/greet", master: true).json == [
                    "code": 143, "error": "no function named: greet is defined",
                ])
            #expect(try await call(client, .get, "/parse/hooks/functions/greet", master: true).json["code"] == 143)

            // The hooks' own class is not writable around /hooks, even with the master key.
            let direct = #"{"functionName":"sneaky","url":"http://evil.example/"}"#
            #expect(try await call(client, .post, "/parse/classes/_Hooks", body: direct, master: true).json["code"] == 119)

            // A function defined in code cannot be replaced.
            let shadow = #"{"functionName":"inCode","url":"\#(receiver.url("/x"))"}"#
            #expect(try await call(client, .post, "/parse/hooks/functions", body: shadow, master: true).json["code"] == 143)
        }
    }

    @Test func onlyAllowedHostsAreEverCalled() async throws {
        let receiver = try await WebhookReceiver.start()
        defer { Task { await receiver.stop() } }
        try await withServer(webhooks: settings(receiver)) { (client: any TestClientProtocol) async throws in
            let refused = [
                #"{"functionName":"f","url":"http://127.0.0.2:\#(receiver.port)/f"}"#,  // another host
                #"{"functionName":"f","url":"http://127.0.0.1:1/f"}"#,  // another port
                #"{"functionName":"f","url":"http://user@\#(receiver.host)/f"}"#,  // user info
                #"{"functionName":"f","url":"file:///etc/passwd"}"#,
                #"{"functionName":"f","url":"gopher://\#(receiver.host)/f"}"#,
                #"{"functionName":{"$gt":""},"url":"\#(receiver.url("/f"))"}"#,
                #"{"functionName":"a\u0000b","url":"\#(receiver.url("/f"))"}"#,
                #"{"functionName":"f"}"#,
                #"{"className":"Post","triggerName":"beforeFind","url":"\#(receiver.url("/f"))"}"#,
                #"{"className":"Bad Name","triggerName":"beforeSave","url":"\#(receiver.url("/f"))"}"#,
            ]
            for body in refused {
                let reply = try await call(client, .post, "/parse/hooks/functions", body: body, master: true)
                #expect(reply.status == 400, "\(body)")
                #expect(reply.json["code"] == 143 || reply.json["code"] == 103, "\(body): \(reply.json)")
            }
            #expect(try await call(client, .get, "/parse/hooks/functions", master: true).json == [])
            #expect(receiver.calls.isEmpty)
        }
    }

    @Test func triggerHooksChangeRefuseAndObserveWrites() async throws {
        let receiver = try await WebhookReceiver.start()
        defer { Task { await receiver.stop() } }
        try await withServer(webhooks: settings(receiver)) { (client: any TestClientProtocol) async throws in
            for (trigger, path) in [("beforeSave", "/before"), ("afterSave", "/after"), ("beforeDelete", "/beforeDelete")] {
                let body = #"{"className":"Post","triggerName":"\#(trigger)","url":"\#(receiver.url(path))"}"#
                #expect(try await call(client, .post, "/parse/hooks/triggers", body: body, master: true).status == 200)
            }
            #expect(try await call(client, .get, "/parse/hooks/triggers", master: true).json.arrayValue?.count == 3)
            // The receiver answers the changes to save (here: the title, and a derived field).
            receiver.answer("/before", #"{"success":{"title":"Hello","checked":true,"className":"Post"}}"#)
            receiver.answer("/beforeDelete", #"{"error":"Posts are kept."}"#)
            let created = try await call(client, .post, "/parse/classes/Post", body: #"{"title":"Hello"}"#)
            #expect(created.status == 201)
            let id = try #require(created.json["objectId"]?.stringValue)
            let stored = try await call(client, .get, "/parse/classes/Post/\(id)", master: true)
            #expect(stored.json["checked"] == true)
            let before = try #require(receiver.calls.first { $0.path == "/before" })
            #expect(
                before.body["triggerName"] == "beforeSave" && before.body["object"]?["title"] == "Hello"
                    && before.body["object"]?["className"] == "Post")
            try await waitUntil { receiver.calls.contains { $0.path == "/after" } }
            #expect(receiver.calls.first { $0.path == "/after" }?.body["object"]?["objectId"] == .string(id))
            #expect(try await call(client, .delete, "/parse/classes/Post/\(id)").json == ["code": 141, "error": "Posts are kept."])
            #expect(try await call(client, .get, "/parse/classes/Post/\(id)").status == 200)

            // A before-save hook that cannot be reached refuses the write: nothing is stored.
            receiver.answer("/before", "oops", status: 502)
            #expect(try await call(client, .post, "/parse/classes/Post", body: #"{"title":"x"}"#).json["code"] == 143)
            #expect(try await call(client, .get, "/parse/classes/Post", master: true).json["results"]?.arrayValue?.count == 1)
            #expect(try await call(client, .delete, "/parse/hooks/triggers/Post/beforeSave", master: true).status == 200)
            #expect(try await call(client, .post, "/parse/classes/Post", body: #"{"title":"x"}"#).status == 201)
        }
    }

    /// A receiver that never answers fails the call at the handler time limit (124), on the
    /// server's clock.
    @Test func aSlowHookTimesOut() async throws {
        let receiver = try await WebhookReceiver.start()
        defer { Task { await receiver.stop() } }
        let clock = TestClock()
        var cloud = CloudCode()
        cloud.handlers.timeout = .seconds(5)
        try await withServer(clock: clock, cloud: cloud, webhooks: settings(receiver)) { (client: any TestClientProtocol) async throws in
            #expect(
                try await call(
                    client, .post, "/parse/hooks/functions", body: #"{"functionName":"slow","url":"\#(receiver.url("/slow"))"}"#, master: true
                ).status == 200)
            receiver.answer("/slow", "{}", hang: true)
            let before = clock.sleeping
            async let reply = call(client, .post, "/parse/functions/slow", body: "{}")
            try await clock.untilSleeping(before + 1)
            clock.advance(by: .seconds(5))
            #expect(try await reply.json["code"] == 124)
        }
    }

    /// Save, delete and find hooks on `_Session` would never run (sessions are not written
    /// through the object path): refused, as Parse Server refuses them, and nothing is stored.
    @Test func sessionHooksAreRefused() async throws {
        let receiver = try await WebhookReceiver.start()
        defer { Task { await receiver.stop() } }
        try await withServer(webhooks: settings(receiver)) { (client: any TestClientProtocol) async throws in
            for trigger in ["beforeSave", "afterSave", "beforeDelete", "afterDelete", "afterLogout"] {
                let body = #"{"className":"_Session","triggerName":"\#(trigger)","url":"\#(receiver.url("/s"))"}"#
                let reply = try await call(client, .post, "/parse/hooks/triggers", body: body, master: true)
                #expect(reply.status == 400, "\(trigger)")
                #expect(reply.json == ["code": 143, "error": "Only the afterLogout trigger is allowed for the _Session class."], "\(trigger)")
            }
            #expect(try await call(client, .get, "/parse/hooks/triggers", master: true).json == [])
        }
    }

    /// One answer for a webhook that is too slow, whichever limit comes first: the call's own
    /// deadline (here 1 s, the handler limit on a clock that never moves) or the handler limit
    /// (here 5 s on the test clock, the call's deadline 60 s). Both are Parse's 124, the same
    /// bytes.
    @Test func aSlowHookIs124WhicheverLimitFiresFirst() async throws {
        let receiver = try await WebhookReceiver.start()
        defer { Task { await receiver.stop() } }
        receiver.answer("/slow", "{}", hang: true)
        let register = #"{"functionName":"slow","url":"\#(receiver.url("/slow"))"}"#
        var short = settings(receiver)
        short.timeout = .seconds(1)
        var cloud = CloudCode()
        cloud.handlers.timeout = .seconds(60)
        let answers = LockedBox<[(Int, JSON)]>([])
        try await withServer(clock: TestClock(), cloud: cloud, webhooks: short) { (client: any TestClientProtocol) async throws in
            #expect(try await call(client, .post, "/parse/hooks/functions", body: register, master: true).status == 200)
            let reply = try await call(client, .post, "/parse/functions/slow", body: "{}")
            answers.withLock { $0.append((reply.status, reply.json)) }
        }
        var long = settings(receiver)
        long.timeout = .seconds(60)
        cloud.handlers.timeout = .seconds(5)
        let clock = TestClock()
        try await withServer(clock: clock, cloud: cloud, webhooks: long) { (client: any TestClientProtocol) async throws in
            #expect(try await call(client, .post, "/parse/hooks/functions", body: register, master: true).status == 200)
            let before = clock.sleeping
            async let reply = call(client, .post, "/parse/functions/slow", body: "{}")
            try await clock.untilSleeping(before + 1)
            clock.advance(by: .seconds(5))
            let (status, json) = (try await reply.status, try await reply.json)
            answers.withLock { $0.append((status, json)) }
        }
        let expected = JSON.object(["code": 124, "error": "The server-side handler did not finish in time."])
        let seen = answers.withLock { $0 }
        #expect(seen.count == 2 && seen.allSatisfy { $0.1 == expected && $0.0 == seen[0].0 }, "\(seen)")
    }

    /// A host that refuses connections fails the call at once (143): no connection retries
    /// that hold the request until the deadline.
    @Test func aRefusedConnectionFailsAtOnce() async throws {
        let closed = try Loopback.freePort()
        var settings = WebhookSettings()
        settings.allowedHosts = ["127.0.0.1:\(closed)"]
        settings.timeout = .seconds(30)
        var cloud = CloudCode()
        cloud.handlers.timeout = .seconds(60)
        try await withServer(clock: TestClock(), cloud: cloud, webhooks: settings) { (client: any TestClientProtocol) async throws in
            let register = #"{"functionName":"gone","url":"http://127.0.0.1:\#(closed)/gone"}"#
            #expect(try await call(client, .post, "/parse/hooks/functions", body: register, master: true).status == 200)
            let started = ContinuousClock.now
            let reply = try await call(client, .post, "/parse/functions/gone", body: "{}")
            let elapsed = ContinuousClock.now - started
            #expect(reply.json == ["code": 143, "error": "The webhook failed."])
            // Retrying the connection held this call 5 s or more before; one refused connect is
            // a few milliseconds. The bound is wide so a loaded machine cannot fail it.
            #expect(elapsed < .seconds(3), "\(elapsed)")
        }
    }
}
