import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import RooftopCore
import RooftopCrypto
import RooftopIdentity
import RooftopServices
import RooftopTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One browser sign-in driven step by step with real HTTP and no redirect followed: the
/// server's `start`, the stand-in provider's sign-in form (GET, then the form's POST), the
/// server's `callback`, and the app's `/auth/token`. What a browser does, minus the rendering
/// (`BrowserSignInTests` runs the same in Chromium).
struct BrowserSignInSteps {
    let client: any TestClientProtocol
    /// The app's PKCE verifier and its S256 challenge.
    let verifier = SessionTokens().newSecret()
    var challenge: String { SessionTokens().pkceChallenge(verifier) }
    /// An allowed loopback redirect (any port matches `http://127.0.0.1/callback`).
    static let appRedirect = "http://127.0.0.1:53124/callback"

    /// A server answer: status, `Location`, `Cache-Control` and body text.
    struct Answer {
        var status: Int
        var location: String?
        var cacheControl: String?
        var body: String
    }

    /// `GET <path>` on the server, without following a redirect.
    func get(_ path: String, language: String? = nil) async throws -> Answer {
        var headers: HTTPFields = [:]
        if let language { headers[.acceptLanguage] = language }
        return try await client.execute(uri: path, method: .get, headers: headers, body: nil) { response in
            Answer(
                status: Int(response.status.code), location: response.headers[.location], cacheControl: response.headers[.cacheControl],
                body: String(buffer: response.body))
        }
    }

    /// `/parse/auth/<provider>/start` with the app's redirect, challenge and state, and a link
    /// code (or, refused, a session token as `link`).
    func startPath(
        _ provider: String, redirect: String = appRedirect, challenge: String? = nil, state: String = "app-state", linkCode: String? = nil,
        sessionInURL: String? = nil
    ) -> String {
        var query = [("redirect_uri", redirect), ("code_challenge", challenge ?? self.challenge), ("state", state)]
        if let linkCode { query.append(("link_code", linkCode)) }
        if let sessionInURL { query.append(("link", sessionInURL)) }
        return "/parse/auth/\(provider)/start?" + Self.encode(query)
    }

    /// `POST /parse/auth/<provider>/link` with `session`: status and answer.
    func askLinkCode(_ provider: String, session: String?, challenge: String? = nil) async throws -> (Int, JSON) {
        var headers: HTTPFields = [:]
        headers[HTTPField.Name("X-Parse-Application-Id")!] = testAppId
        if let session { headers[HTTPField.Name("X-Parse-Session-Token")!] = session }
        let body: JSON = ["code_challenge": .string(challenge ?? self.challenge)]
        return try await client.execute(
            uri: "/parse/auth/\(provider)/link", method: .post, headers: headers, body: ByteBuffer(bytes: JSONWriter.bytes(body))
        ) { response in
            (Int(response.status.code), try JSONParser.parse(Array(response.body.readableBytesView)))
        }
    }

    /// A link code for the user signed in with `session`.
    func linkCode(_ provider: String, session: String) async throws -> String {
        let (status, answer) = try await askLinkCode(provider, session: session)
        guard status == 200, let code = answer["linkCode"]?.stringValue else { throw StandInError("link answered \(status): \(answer)") }
        return code
    }

    /// Starts a flow: the provider's authorization URL; with `link` (a session token), a link
    /// of that user, through a link code.
    func start(_ provider: String, link: String? = nil) async throws -> String {
        var code: String?
        if let link { code = try await linkCode(provider, session: link) }
        let answer = try await get(startPath(provider, linkCode: code))
        guard answer.status == 302, let location = answer.location else { throw StandInError("start answered \(answer.status): \(answer.body)") }
        return location
    }

    /// At Apple (`response_mode=form_post`): signs in as `subject` (or cancels); the page's
    /// form, which a browser posts at once: where to (the server's callback) and its fields.
    static func signInFormPost(at authorization: String, subject: String, allow: Bool = true) async throws -> (String, [String: String]) {
        let (page, status) = try await submit(at: authorization, subject: subject, allow: allow)
        guard status == 200, let action = attribute("action", in: page) else { throw StandInError("no form post (\(status)): \(page)") }
        var fields: [String: String] = [:]
        for input in page.components(separatedBy: "<input").dropFirst() {
            if let name = attribute("name", in: input), let value = attribute("value", in: input) { fields[name] = value }
        }
        return (action, fields)
    }

    /// `name='…'` or `name="…"` in `html`, unescaped.
    static func attribute(_ name: String, in html: String) -> String? {
        for quote in ["\"", "'"] {
            guard let start = html.range(of: " \(name)=\(quote)"), let end = html[start.upperBound...].range(of: quote) else { continue }
            return String(html[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "&quot;", with: "\"")
                .replacingOccurrences(of: "&#x27;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
                .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        }
        return nil
    }

    /// The form post delivered to the server's callback (as the browser does).
    func callbackPost(_ action: String, _ fields: [String: String]) async throws -> Answer {
        var headers: HTTPFields = [:]
        headers[.contentType] = "application/x-www-form-urlencoded"
        let body = Self.encode(fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        return try await client.execute(uri: Self.serverPath(action), method: .post, headers: headers, body: ByteBuffer(string: body)) {
            response in
            Answer(
                status: Int(response.status.code), location: response.headers[.location], cacheControl: response.headers[.cacheControl],
                body: String(buffer: response.body))
        }
    }

    /// Loads the provider's sign-in form and posts it as `subject`: the answer's body and status.
    private static func submit(at authorization: String, subject: String, allow: Bool) async throws -> (String, Int) {
        let (body, status, _) = try await post(at: authorization, subject: subject, allow: allow)
        return (body, status)
    }

    /// At the provider: loads the sign-in form, then posts it as `subject` (or cancels); the
    /// provider's redirect to the server's callback.
    static func signIn(at authorization: String, subject: String, allow: Bool = true) async throws -> String {
        let (_, status, location) = try await post(at: authorization, subject: subject, allow: allow)
        guard status == 302, let location else { throw StandInError("the provider's form answered \(status)") }
        return location
    }

    private static func post(at authorization: String, subject: String, allow: Bool) async throws -> (String, Int, String?) {
        guard let url = URL(string: authorization), let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw StandInError("bad authorization URL")
        }
        let (page, formStatus, _) = try await fetch(URLRequest(url: url))
        guard formStatus == 200, page.contains("id='subject'") else { throw StandInError("no sign-in form (\(formStatus)): \(page)") }
        var fields = (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }
        fields += [("subject", subject), ("decision", allow ? "allow" : "deny")]
        var post = URLRequest(url: url)
        post.httpMethod = "POST"
        post.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        post.httpBody = Data(encode(fields).utf8)
        return try await fetch(post)
    }

    /// The callback URL's path and query on the server (the test client talks to the server).
    static func serverPath(_ url: String) -> String {
        guard let components = URLComponents(string: url) else { return url }
        return components.path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }

    /// The provider's redirect delivered to the server's callback.
    func callback(_ url: String, language: String? = nil) async throws -> Answer {
        try await get(Self.serverPath(url), language: language)
    }

    /// `POST /parse/auth/token` (with a second factor's code as `authData.mfa.token`).
    func redeem(_ code: String?, verifier: String?, secondFactor: String? = nil) async throws -> (Int, JSON) {
        var body: [String: JSON] = [:]
        body["code"] = code.map(JSON.string)
        body["code_verifier"] = verifier.map(JSON.string)
        if let secondFactor { body["authData"] = ["mfa": ["token": .string(secondFactor)]] }
        var headers: HTTPFields = [:]
        headers[HTTPField.Name("X-Parse-Application-Id")!] = testAppId
        return try await client.execute(
            uri: "/parse/auth/token", method: .post, headers: headers, body: ByteBuffer(bytes: JSONWriter.bytes(.object(body)))
        ) { response in
            (Int(response.status.code), try JSONParser.parse(Array(response.body.readableBytesView)))
        }
    }

    /// The whole flow as `subject`: the app's redirect (with `code` or `error`).
    func run(_ provider: String, subject: String, link: String? = nil) async throws -> [String: String] {
        let authorization = try await start(provider, link: link)
        let back = try await callback(try await Self.signIn(at: authorization, subject: subject))
        guard back.status == 302, let location = back.location, location.hasPrefix(Self.appRedirect + "?") else {
            throw StandInError("callback answered \(back.status): \(back.body)")
        }
        return Self.query(location)
    }

    /// A URL's query parameters.
    static func query(_ url: String) -> [String: String] {
        var result: [String: String] = [:]
        for item in URLComponents(string: url)?.queryItems ?? [] { result[item.name] = item.value ?? "" }
        return result
    }

    /// `application/x-www-form-urlencoded`.
    static func encode(_ pairs: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return pairs.map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
    }

    /// One request to the provider, no redirect followed: body, status, `Location`.
    static func fetch(_ request: URLRequest) async throws -> (String, Int, String?) {
        let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        let http = response as? HTTPURLResponse
        return (String(decoding: data, as: UTF8.self), http?.statusCode ?? 0, http?.value(forHTTPHeaderField: "Location"))
    }
}

/// Refuses every redirect, so each step's answer is seen.
final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
