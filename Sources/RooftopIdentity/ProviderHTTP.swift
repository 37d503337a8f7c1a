import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import RooftopCore
package import RooftopOutbound

/// GETs and POSTs JSON to providers over the one client that talks to them: redirects refused,
/// bounded times and sizes, the system's trust roots and `outboundCAFile`'s. Nothing here logs
/// a URL (it may carry a token).
package struct ProviderHTTP: Sendable {
    let client: HTTPClient

    /// The providers' client, trusting `caFile`'s certificates besides the system's roots.
    package init(caFile: String?) throws(OutboundTrustError) {
        client = try OutboundClients.client(Self.purpose, configuration: Self.configuration, caFile: caFile)
    }

    /// The providers' client with the system's trust roots only.
    package static let standard = ProviderHTTP(client: OutboundClients.client(purpose, configuration: configuration))

    private init(client: HTTPClient) { self.client = client }

    static let purpose = "identity providers"
    static let configuration = HTTPClient.Configuration(
        redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5), read: .seconds(10)), decompression: .disabled)

    /// The largest answer read (JWKS, discovery, Graph answers are a few kB).
    static let maxBytes = 1 << 20

    /// A provider's answer: its status and its JSON (`null` when it isn't JSON).
    struct Answer {
        var status: Int
        var json: JSON
        /// How long the answer may be kept, in seconds, from its `Cache-Control`: `max-age`, or
        /// 0 for `no-store`/`no-cache`; nil when it says neither.
        var maxAge: Int64? = nil
    }

    /// The freshness `Cache-Control` gives, in seconds (see `Answer.maxAge`).
    static func maxAge(_ cacheControl: [String]) -> Int64? {
        var found: Int64?
        for directive in cacheControl.flatMap({ $0.split(separator: ",") }) {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            switch parts.first {
            case "no-store", "no-cache": return 0
            case "max-age" where parts.count == 2:
                let digits = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy(\.isASCII), let seconds = Int64(digits), seconds >= 0 else { continue }
                found = seconds
            default: continue
            }
        }
        return found
    }

    /// `GET url` with `headers`.
    func get(_ url: String, headers: [(String, String)] = []) async throws(ProviderUnreachable) -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        return try await send(request, headers)
    }

    /// `POST url` with a URL-encoded form (a token endpoint).
    func postForm(_ url: String, _ form: [(String, String)], headers: [(String, String)] = []) async throws(ProviderUnreachable) -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        let body = form.map { "\($0)=\(FacebookProvider.queryEncoded($1))" }.joined(separator: "&")
        request.body = .bytes(ByteBuffer(string: body))
        return try await send(request, headers + [("Content-Type", "application/x-www-form-urlencoded")])
    }

    /// `POST url` with a JSON body (GitHub's token check).
    func postJSON(_ url: String, _ body: [String: JSON], headers: [(String, String)] = []) async throws(ProviderUnreachable) -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.body = .bytes(ByteBuffer(bytes: JSONWriter.bytes(.object(body))))
        return try await send(request, headers + [("Content-Type", "application/json")])
    }

    private func send(_ request: HTTPClientRequest, _ headers: [(String, String)]) async throws(ProviderUnreachable) -> Answer {
        var request = request
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: "rooftop")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        do {
            let response = try await client.execute(request, timeout: .seconds(15))
            let body = try await response.body.collect(upTo: Self.maxBytes)
            let json = (try? JSONParser.parse(Array(body.readableBytesView))) ?? .null
            return Answer(status: Int(response.status.code), json: json, maxAge: Self.maxAge(response.headers["Cache-Control"]))
        } catch {
            throw ProviderUnreachable()
        }
    }
}

/// A provider could not be reached or answered too much; the request is refused (101) and
/// nothing is created.
struct ProviderUnreachable: Error {}
