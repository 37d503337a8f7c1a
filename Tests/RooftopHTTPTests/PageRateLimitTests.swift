import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import RooftopCore
import RooftopHTTP
import RooftopServices
import RooftopTesting
import Testing

/// A person at a hosted page who hits a rate limit reads a page in their language with how long
/// to wait, not the API's JSON; an app posting the form itself (`XMLHttpRequest`) keeps the JSON.
@Suite struct PageRateLimitTests: LiveServerTest {
    struct Answer {
        var status: Int
        var type: String
        var retryAfter: String?
        var text: String
    }

    func get(_ client: any TestClientProtocol, _ uri: String, language: String? = nil, xhr: Bool = false) async throws -> Answer {
        var headers = HTTPFields()
        if let language { headers[.acceptLanguage] = language }
        if xhr, let name = HTTPField.Name("X-Requested-With") { headers[name] = "XMLHttpRequest" }
        return try await client.execute(uri: uri, method: .post, headers: headers) { response in
            Answer(
                status: Int(response.status.code), type: response.headers[.contentType] ?? "", retryAfter: response.headers[.retryAfter],
                text: String(buffer: response.body))
        }
    }

    @Test func aLimitedFormPostShowsALocalizedPage() async throws {
        let rules = [RateLimiter.Rule(path: "/apps/*", count: 1, window: 120_000)]
        try await withServer(configure: { _, http in http.rateLimits = rules }) { (client: any TestClientProtocol) async throws in
            let page = "/parse/apps/\(testAppId)/request_password_reset"
            #expect(try await get(client, page).status != 429)
            let english = try await get(client, page, language: "en")
            #expect(english.status == 429 && english.type.hasPrefix("text/html"), "\(english)")
            #expect(english.text.contains("Too many attempts") && english.text.contains("wait 2 minutes"), "\(english.text)")
            #expect(english.retryAfter.flatMap(Int.init).map { $0 > 60 && $0 <= 120 } == true)
            let japanese = try await get(client, page, language: "ja")
            #expect(japanese.status == 429 && japanese.text.contains("試行回数が多すぎます") && japanese.text.contains("2分"), "\(japanese.text)")
            #expect(!japanese.text.contains("\"code\""))
            let xhr = try await get(client, page, xhr: true)
            #expect(xhr.status == 429 && xhr.type.hasPrefix("application/json") && xhr.text.contains("\"code\":100"), "\(xhr)")
            // A page no route answers is limited the same way.
            let unknown = try await get(client, "/parse/apps/\(testAppId)/no_such_page", language: "en")
            #expect(unknown.status == 429 && unknown.type.hasPrefix("text/html"))
        }
    }
}
