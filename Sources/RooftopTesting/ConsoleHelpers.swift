import Foundation
package import HTTPTypes
package import HummingbirdTesting
import NIOCore
import RooftopConsole
import RooftopCore
import RooftopCrypto
package import RooftopServices
package import RooftopStorage
import Testing

/// A console answer as the tests read it.
package struct ConsolePage {
    /// The HTTP status code.
    package let status: Int
    /// The answer's headers.
    package let headers: HTTPFields
    /// The page's HTML.
    package let html: String

    /// A page as answered.
    package init(status: Int, headers: HTTPFields, html: String) {
        self.status = status
        self.headers = headers
        self.html = html
    }

    /// The `Set-Cookie` value for `name`, whole (with its attributes).
    package func setCookie(_ name: String) -> String? {
        headers[values: .setCookie].first { $0.hasPrefix(name + "=") }
    }

    /// The value of the first hidden `name` field.
    package func hidden(_ name: String) -> String? {
        guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }
}

/// Helpers for console tests: admins made straight in the store the server uses, and a cookie
/// jar for hand-made requests.
extension LiveServerTest {
    /// The console's admins over `store` (the hasher and policy the test server uses).
    package func consoleAdmins(_ store: any DataStore, clock: any ServerClock = WallClock(), threshold: Int = 5) -> ConsoleAdmins {
        ConsoleAdmins(
            store: store, hasher: BcryptPasswordHasher(cost: 4), codes: TOTPCodes(), policy: PasswordPolicy(), clock: clock,
            lockoutThreshold: threshold,
            lockoutDuration: 900)
    }

    /// A console request with `cookies` and, when given, a form body: the page answered.
    package func consoleRequest(
        _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, cookies: [String: String] = [:], form: [String: String]? = nil,
        headers extra: [String: String] = [:]
    ) async throws -> ConsolePage {
        var headers = HTTPFields()
        if !cookies.isEmpty { headers[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
        if form != nil { headers[.contentType] = "application/x-www-form-urlencoded" }
        for (name, value) in extra { headers[try #require(HTTPField.Name(name))] = value }
        let body = form.map { ConsoleTestForm.encode($0) }
        return try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }) { response in
            ConsolePage(status: Int(response.status.code), headers: response.headers, html: String(buffer: response.body))
        }
    }

    /// Signs `name` in through the login form; the session cookie's value (nil when refused) and
    /// the last answer.
    package func consoleSignIn(
        _ client: any TestClientProtocol, _ name: String, _ password: String, code: String? = nil, headers: [String: String] = [:]
    ) async throws -> (session: String?, page: ConsolePage) {
        let form = try await consoleRequest(client, .get, "/console/login", headers: headers)
        // Over HTTPS the console's cookies carry the `__Host-` prefix.
        let prefix = form.setCookie("__Host-rooftop_console_login") == nil ? "" : "__Host-"
        let loginCookie = try #require(form.setCookie(prefix + "rooftop_console_login")?.split(separator: ";").first?.split(separator: "=").last)
        var fields = ["csrf": form.hidden("csrf") ?? "", "name": name, "password": password]
        if let code { fields["code"] = code }
        let answer = try await consoleRequest(
            client, .post, "/console/login", cookies: [prefix + "rooftop_console_login": String(loginCookie)], form: fields, headers: headers)
        let session = answer.setCookie(prefix + "rooftop_console").flatMap {
            $0.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last
        }
        return (session.map(String.init), answer)
    }

    /// The session's CSRF token, read from a page's forms.
    package func consoleCSRF(_ client: any TestClientProtocol, session: String) async throws -> String {
        let page = try await consoleRequest(client, .get, "/console/users", cookies: ["rooftop_console": session])
        return try #require(page.hidden("csrf"))
    }
}

/// Form bodies as a browser posts them.
package enum ConsoleTestForm {
    /// `fields` URL-encoded, sorted by name.
    package static func encode(_ fields: [String: String]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }
            .joined(separator: "&")
    }
}

/// Keeps the store a test server opened, for the test to reach (admins live only there).
package final class StoreBox: Sendable {
    private let box = LockedBox<(any DataStore)?>(nil)

    /// An empty box.
    package init() {}

    /// Keeps `store` and passes it on (a `wrap` for `withServer`).
    package func keep(_ store: any DataStore) -> any DataStore {
        box.withLock { $0 = store }
        return store
    }
    /// The store kept (the test fails if none was).
    package var store: any DataStore {
        get throws { try #require(box.withLock { $0 }) }
    }
}
