import Foundation
import HTTPTypes
package import HummingbirdTesting
import RooftopConsole
import RooftopCore
package import RooftopServices
import RooftopStorage
import Testing

/// Helpers for the data and roles pages' tests: a signed-in admin, objects made over the API,
/// and a page's rows and links read back from its HTML.
extension LiveServerTest {
    /// Creates admin `name` with `role`, signs in; the session cookie and its CSRF token.
    package func consoleAdmin(
        _ client: any TestClientProtocol, _ stores: StoreBox, _ name: String = "ops", role: ConsoleRole = .owner
    ) async throws -> (session: String, csrf: String) {
        try await consoleAdmins(try stores.store).create(name: name, password: "console passphrase 1", role: role, totp: false)
        let session = try #require(try await consoleSignIn(client, name, "console passphrase 1").session)
        return (session, try await consoleCSRF(client, session: session))
    }

    /// Creates an object over the API with the master key; its objectId.
    package func masterCreate(_ client: any TestClientProtocol, _ className: String, _ body: String) async throws -> String {
        let reply = try await call(client, .post, "/parse/classes/\(className)", body: body, master: true)
        return try #require(reply.json["objectId"]?.stringValue, "\(reply.json)")
    }

    /// Signs a user up; objectId and session token.
    package func signUp(_ client: any TestClientProtocol, _ username: String) async throws -> (id: String, token: String) {
        let reply = try await call(client, .post, "/parse/users", body: #"{"username":"\#(username)","password":"a long password 1"}"#)
        return (try #require(reply.json["objectId"]?.stringValue), try #require(reply.json["sessionToken"]?.stringValue))
    }
}

extension ConsolePage {
    /// The objectIds of a class table's rows, in order.
    package func rowIds(_ className: String) -> [String] {
        let marker = "/data/\(className)/"
        var ids: [String] = []
        var rest = html[...]
        while let range = rest.range(of: "<tr><td><a href=\"/console" + marker) {
            let id = rest[range.upperBound...].prefix { $0 != "\"" }
            ids.append(String(id))
            rest = rest[range.upperBound...]
        }
        return ids
    }

    /// The `href` of the link with `rel`, unescaped.
    package func link(rel: String) -> String? {
        guard let end = html.range(of: "\" rel=\"\(rel)\"") else { return nil }
        guard let start = html[..<end.lowerBound].range(of: "href=\"", options: .backwards) else { return nil }
        return Self.unescape(String(html[start.upperBound..<end.lowerBound]))
    }

    /// `text` with the HTML entities the templates write turned back into characters.
    package static func unescape(_ text: String) -> String {
        var out = text
        for (entity, plain) in [
            ("&quot;", "\""), ("&#39;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&#x2F;", "/"), ("&#x3D;", "="), ("&#x60;", "`"), ("&amp;", "&"),
        ] {
            out = out.replacingOccurrences(of: entity, with: plain)
        }
        return out
    }
}

/// Query strings for the console's GET forms.
package enum ConsoleQuery {
    /// `fields` as a query string.
    package static func encode(_ fields: [String: String]) -> String { ConsoleTestForm.encode(fields) }
}
