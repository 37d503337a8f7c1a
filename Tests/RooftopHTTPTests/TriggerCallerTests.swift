import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopServer
import RooftopTesting
import Testing

/// What a trigger is told of the request that caused a write. The request's origin is a value
/// handed down from the edge (no task-local), so every way a write can be made must carry it:
/// a route, a function's own writes, a trigger's own writes, and a job, which has no request.
@Suite struct TriggerCallerTests: LiveServerTest {
    /// One line per `Seen` save: which path wrote it, and what the trigger was told.
    static func cloud(_ journal: TriggerTests.Journal) -> CloudCode {
        var cloud = CloudCode()
        cloud.beforeSave("Seen") { request in
            let via = request.object["via"]?.stringValue ?? "?"
            journal.add(
                "\(via) user=\(request.userId == nil ? "-" : "yes") master=\(request.isMaster) ip=\(request.ip ?? "-")"
                    + " device=\(request.installationId ?? "-") tag=\(request.headers["x-tag"] ?? "-")")
        }
        cloud.afterSave("Seen") { request in
            if request.object["via"] == "route" { _ = try await request.objects.create("Seen", ["via": "afterSave"], as: .caller) }
        }
        cloud.define("write") { request in
            _ = try await request.objects.create("Seen", ["via": "function"], as: .caller)
            _ = try await request.objects.create("Seen", ["via": "function as master"], as: .master)
            return "written"
        }
        cloud.job("write") { request in _ = try await request.objects.create("Seen", ["via": "job"], as: .master) }
        return cloud
    }

    @Test func triggersAreToldTheRequestBehindEveryWrite() async throws {
        let journal = TriggerTests.Journal()
        try await withServer(cloud: Self.cloud(journal)) { (client: any TestClientProtocol) async throws in
            let signUp = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"a long password 1"}"#)
            let token = try #require(signUp.json["sessionToken"]?.stringValue)
            let request = ["X-Parse-Session-Token": token, "X-Parse-Installation-Id": "device-1", "X-Tag": "blue"]

            #expect(try await call(client, .post, "/parse/classes/Seen", body: #"{"via":"route"}"#, headers: request).status == 201)
            #expect(try await call(client, .post, "/parse/functions/write", body: "{}", headers: request).json["result"] == "written")
            let asUser = "user=yes master=false ip=127.0.0.1 device=device-1 tag=blue"
            #expect(
                journal.all == [
                    "route \(asUser)", "afterSave \(asUser)", "function \(asUser)",
                    "function as master user=- master=true ip=127.0.0.1 device=device-1 tag=blue",
                ])

            // A job runs after its request was answered, for no one: not told the request's
            // address or headers.
            #expect(try await call(client, .post, "/parse/jobs/write", body: "{}", master: true, headers: ["X-Tag": "blue"]).status == 200)
            try await waitUntil { journal.all.count == 5 }
            #expect(journal.all.last == "job user=- master=true ip=- device=- tag=-")
        }
    }
}
