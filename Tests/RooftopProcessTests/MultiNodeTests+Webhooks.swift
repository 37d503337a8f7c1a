import RooftopCore
import RooftopServices
import RooftopTesting
import Testing

extension MultiNodeTests {
    /// A hook registered on one node is called by the other at once.
    @Test func hooksRegisteredOnOneNodeServeTheOther() async throws {
        let receiver = try await WebhookReceiver.start()
        defer { Task { await receiver.stop() } }
        var settings = WebhookSettings()
        settings.allowedHosts = [receiver.host]
        let cluster = try await ClusterNodes.start(webhooks: settings)
        do {
            #expect(try await cluster.call(1, "POST", "/functions/ping").1["code"] == 141)  // node 1 caches "no hooks"
            receiver.answer("/ping", #"{"success":"pong"}"#)
            let hook = #"{"functionName":"ping","url":"\#(receiver.url("/ping"))"}"#
            #expect(try await cluster.call(0, "POST", "/hooks/functions", body: hook, master: true).0 == 200)
            try await waitUntil(.seconds(1)) { try await cluster.call(1, "POST", "/functions/ping").1 == ["result": "pong"] }
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }
}
