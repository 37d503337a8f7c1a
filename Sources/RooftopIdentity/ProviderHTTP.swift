import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import RooftopCore

/// The one HTTP client that talks to providers: redirects refused, bounded times and sizes.
/// Process-wide and never shut down, like `HTTPClient.shared`.
private let providerClient = HTTPClient(
    eventLoopGroup: HTTPClient.defaultEventLoopGroup,
    configuration: HTTPClient.Configuration(
        redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5), read: .seconds(10)), decompression: .disabled))

/// GETs JSON from a provider. Nothing here logs a URL (it may carry a token).
struct ProviderHTTP: Sendable {
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
    static func get(_ url: String, headers: [(String, String)] = []) async throws(ProviderUnreachable) -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        return try await send(request, headers)
    }

    /// `POST url` with a URL-encoded form (a token endpoint).
    static func postForm(_ url: String, _ form: [(String, String)], headers: [(String, String)] = []) async throws(ProviderUnreachable) -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        let body = form.map { "\($0)=\(FacebookProvider.queryEncoded($1))" }.joined(separator: "&")
        request.body = .bytes(ByteBuffer(string: body))
        return try await send(request, headers + [("Content-Type", "application/x-www-form-urlencoded")])
    }

    /// `POST url` with a JSON body (GitHub's token check).
    static func postJSON(_ url: String, _ body: [String: JSON], headers: [(String, String)] = []) async throws(ProviderUnreachable) -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.body = .bytes(ByteBuffer(bytes: JSONWriter.bytes(.object(body))))
        return try await send(request, headers + [("Content-Type", "application/json")])
    }

    private static func send(_ request: HTTPClientRequest, _ headers: [(String, String)]) async throws(ProviderUnreachable) -> Answer {
        var request = request
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: "rooftop")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        do {
            let response = try await providerClient.execute(request, timeout: .seconds(15))
            let body = try await response.body.collect(upTo: maxBytes)
            let json = (try? JSONParser.parse(Array(body.readableBytesView))) ?? .null
            return Answer(status: Int(response.status.code), json: json, maxAge: maxAge(response.headers["Cache-Control"]))
        } catch {
            throw ProviderUnreachable()
        }
    }
}

/// A provider could not be reached or answered too much; the request is refused (101) and
/// nothing is created.
struct ProviderUnreachable: Error {}
