import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopIdentity
import RooftopOutbound
import RooftopServer
import RooftopServices
import RooftopTesting
import RooftopWebhooks
import Testing

/// `outboundCAFile`: a provider and a webhook receiver behind an internal certificate authority
/// (the stand-in over real TLS on loopback, its certificate from a throwaway CA). With the CA's
/// file the calls succeed; with the system's roots alone they fail, as they must.
@Suite struct OutboundTrustTests: LiveServerTest {
    static let now: Int64 = 1_700_000_000

    @Test func aProviderBehindAnInternalCAIsTrustedOnlyWithItsCAFile() async throws {
        let idp = try StandInIdentityProvider(tls: true)
        defer { idp.stop() }
        let issuer = "https://127.0.0.1:\(try #require(idp.tlsPort))/oidc"
        let settings = [ProviderSettings(name: "oidc", kind: .oidc, clientIds: ["client-1"], issuer: issuer)]
        let token = try await idp.idToken("oidc", sub: "9101", now: Self.now, ["iss": .string(issuer)])
        let body = #"{"authData":{"oidc":{"id":"9101","token":"\#(token)"}}}"#
        let trusted = try ProviderHTTP(caFile: idp.caFile)
        try await withServer(clock: TestClock(), auth: settings, dependencies: { $0.providerHTTP = trusted }) {
            (client: any TestClientProtocol) async throws in
            let reply = try await call(client, .post, "/parse/users", body: body)
            #expect(reply.status == 201, "\(reply.json)")
        }
        try await withServer(clock: TestClock(), auth: settings) { (client: any TestClientProtocol) async throws in
            let reply = try await call(client, .post, "/parse/users", body: body)
            #expect(reply.json == ["code": 101, "error": "authData.oidc could not be validated: the provider is unreachable."])
        }
    }

    @Test func aWebhookBehindAnInternalCAIsTrustedOnlyWithItsCAFile() async throws {
        let receiver = try StandInIdentityProvider(tls: true)
        defer { receiver.stop() }
        var webhooks = WebhookSettings()
        webhooks.allowedHosts = ["127.0.0.1:\(try #require(receiver.tlsPort))"]
        let register = #"{"functionName":"hello","url":"https://127.0.0.1:\#(try #require(receiver.tlsPort))/hook"}"#
        let trusted = try WebhookClient(caFile: receiver.caFile)
        try await withServer(webhooks: webhooks, dependencies: { $0.webhookTransport = trusted }) { (client: any TestClientProtocol) async throws in
            #expect(try await call(client, .post, "/parse/hooks/functions", body: register, master: true).status == 200)
            let reply = try await call(client, .post, "/parse/functions/hello", body: "{}")
            #expect(reply.json == ["result": ["tls": true]], "\(reply.json)")
        }
        try await withServer(webhooks: webhooks) { (client: any TestClientProtocol) async throws in
            #expect(try await call(client, .post, "/parse/hooks/functions", body: register, master: true).status == 200)
            #expect(try await call(client, .post, "/parse/functions/hello", body: "{}").json == ["code": 143, "error": "The webhook failed."])
        }
    }

    @Test func aCAFileThatIsNotOneIsRefusedAtStart() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-ca-\(UUID().uuidString).pem")
        try Data("hello".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        for path in [file.path, "/nonexistent/ca.pem"] {
            #expect(throws: OutboundTrustError.self) { try ProviderHTTP(caFile: path) }
            #expect(throws: OutboundTrustError.self) { try WebhookClient(caFile: path) }
        }
    }
}
