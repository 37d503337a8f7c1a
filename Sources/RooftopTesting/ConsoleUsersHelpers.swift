import Foundation
import HTTPTypes
package import HummingbirdTesting
import RooftopCore
import Testing

/// Tests of the console's users pages: users signed up over the API, and the edit form as a
/// browser posts it back.
package protocol ConsoleUsersTest: LiveServerTest {}

extension ConsoleUsersTest {
    /// Signs `username` up (with `email` when given); objectId and session token.
    package func signUp(_ client: any TestClientProtocol, _ username: String, email: String? = nil) async throws -> (id: String, token: String) {
        var body: [String: JSON] = ["username": .string(username), "password": "user password 1"]
        if let email { body["email"] = .string(email) }
        let reply = try await call(client, .post, "/parse/users", body: JSONWriter.string(.object(body)))
        return (try #require(reply.json["objectId"]?.stringValue, "\(reply.json)"), try #require(reply.json["sessionToken"]?.stringValue))
    }

    /// The edit form a user's page shows, as a browser would post it back unchanged.
    package static func editForm(_ page: ConsolePage) -> [String: String] {
        var form: [String: String] = ["csrf": page.hidden("csrf") ?? ""]
        guard let start = page.html.range(of: "/edit\" class=\"user-edit\">"),
            let end = page.html.range(of: "</form>", range: start.upperBound..<page.html.endIndex)
        else { return form }
        for input in page.html[start.upperBound..<end.lowerBound].components(separatedBy: "<input").dropFirst() {
            func attribute(_ name: String) -> String? {
                guard let range = input.range(of: " \(name)=\"") else { return nil }
                let raw = String(input[range.upperBound...].prefix { $0 != "\"" })
                return raw.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
                    .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                    .replacingOccurrences(of: "&amp;", with: "&")
            }
            guard let name = attribute("name"), name != "csrf" else { continue }
            if input.contains("type=\"checkbox\"") {
                if input.contains(" checked") { form[name] = "on" }
            } else {
                form[name] = attribute("value") ?? ""
            }
        }
        return form
    }
}
