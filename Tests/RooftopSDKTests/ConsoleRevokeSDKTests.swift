import Foundation
import Rooftop
import RooftopConsole
import RooftopCore
import RooftopCrypto
import RooftopServices
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An operator revokes a user's sessions in the console (its real forms over HTTP, cookies and
/// CSRF tokens as a browser keeps them); the app's next SDK call from that session fails and
/// the SDK forgets the user.
extension SDKTests {
    @Suite struct ConsoleRevokeSDKTests {
        @Test func aSessionRevokedInTheConsoleFailsTheSDKsNextCall() async throws {
            try await withSDK { server, _ in
                let ana = RTUser()
                ana.username = "ana"
                ana.password = "pass of ana"
                try await ana.signUp()
                let userId = try #require(ana.objectId)
                #expect(try await RTUser.currentUser()?.fetch().username == "ana")

                let admins = ConsoleAdmins(
                    store: server.store, hasher: BcryptPasswordHasher(cost: 4), codes: TOTPCodes(), policy: PasswordPolicy(),
                    clock: WallClock(),
                    lockoutThreshold: 5, lockoutDuration: 900)
                try await admins.create(name: "ops", password: "console password 1", role: .owner, totp: false)
                let browser = ConsoleBrowser(base: "http://127.0.0.1:\(server.port)/console")
                let login = try await browser.get("/login")
                let signedIn = try await browser.post(
                    "/login", ["csrf": try #require(ConsoleBrowser.hidden("csrf", in: login)), "name": "ops", "password": "console password 1"])
                let page = try await browser.get("/users/\(userId)")
                #expect(signedIn.contains("ops") && page.contains("ana"))
                let revoked = try await browser.post("/users/\(userId)/revoke-all", ["csrf": try #require(ConsoleBrowser.hidden("csrf", in: page))])
                #expect(revoked.contains("All sessions were revoked."))

                await #expect { try await RTUser.currentUser()?.fetch() } throws: { ($0 as? RTError)?.code == .invalidSessionToken }
                #expect(RTUser.currentUser() == nil, "the SDK forgot the revoked session")
            }
        }
    }
}

/// A minimal browser for the console's forms: one cookie jar, redirects followed.
final class ConsoleBrowser: Sendable {
    let base: String
    let session: URLSession

    init(base: String) {
        self.base = base
        let configuration = URLSessionConfiguration.ephemeral
        // Foundation has one cookie store per process here; this base's cookies start empty.
        let cookies = HTTPCookieStorage.shared
        for cookie in URL(string: base).flatMap({ cookies.cookies(for: $0) }) ?? [] { cookies.deleteCookie(cookie) }
        configuration.httpCookieStorage = cookies
        configuration.httpCookieAcceptPolicy = .always
        session = URLSession(configuration: configuration)
    }

    func get(_ path: String) async throws -> String {
        let (data, _) = try await session.data(from: try #require(URL(string: base + path)))
        return String(decoding: data, as: UTF8.self)
    }

    func post(_ path: String, _ form: [String: String]) async throws -> String {
        var request = URLRequest(url: try #require(URL(string: base + path)))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        request.httpBody = Data(
            form.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&").utf8)
        let (data, _) = try await session.data(for: request)
        return String(decoding: data, as: UTF8.self)
    }

    /// A hidden field's value in `html`.
    static func hidden(_ name: String, in html: String) -> String? {
        guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }
}
