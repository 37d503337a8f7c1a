import Foundation
import HummingbirdTesting
import RooftopCore
import RooftopTesting
import Testing

/// The browser sign-in in a real headless Chromium (`Tests/Support/signin_browser.py`): the
/// server's start URL, the stand-in provider's sign-in form filled in and submitted, the
/// server's callback, the redirect to a loopback listener (the app's, RFC 8252), then the app's
/// code exchanged for a session. For a generic OpenID Connect provider and Google, GitHub and Facebook (access-token
/// providers), and Sign in with Apple, whose return is a form the browser posts to the server's
/// callback (`response_mode=form_post`) and whose client secret the server signs with the
/// stand-in's `.p8` key. Screenshots land in `.build/test-artifacts/`.
@Suite(.serialized) struct BrowserSignInTests: LiveServerTest {
    @Test(arguments: [("oidc", "zoe"), ("google", "gail"), ("github", "5150"), ("facebook", "1001"), ("apple", "sam")])
    func signInInChromium(provider: String, subject: String) async throws {
        let idp = try StandInIdentityProvider()
        defer { idp.stop() }
        try await idp.setClock(BrowserSignInHostileTests.now)
        try FileManager.default.createDirectory(at: BrowserResetTests.artifacts, withIntermediateDirectories: true)
        try await withServer(accounts: BrowserSignInHostileTests.accounts, clock: TestClock(), auth: idp.settings()) { client in
            let steps = BrowserSignInSteps(client: client)
            let port = try #require(client.port)
            let start = "http://127.0.0.1:\(port)/parse/auth/\(provider)/start?code_challenge=\(steps.challenge)&state=s1"
            let (status, output) = try await BrowserResetTests().run(
                SMTPTestServer.python,
                [
                    SMTPTestServer.root.appendingPathComponent("Tests/Support/signin_browser.py").path, start, subject,
                    BrowserResetTests.artifacts.appendingPathComponent("signin-\(provider)").path,
                ])
            try #require(status == 0, "the browser script failed (is chromium-driver installed? run ./scripts/test): \(output)")
            let result = try JSONParser.parse(output)
            #expect(result["provider_title"]?.stringValue == "Sign in to \(provider)")
            let back = BrowserSignInSteps.query("x:/?" + (result["callback"]?.stringValue ?? ""))
            #expect(back["state"] == "s1")
            let code = try #require(back["code"], "\(back)")
            let (answer, user) = try await steps.redeem(code, verifier: steps.verifier)
            #expect(answer == 200, "\(user)")
            #expect(user["authData"]?[provider]?["id"]?.stringValue == subject)
            #expect(user["sessionToken"]?.stringValue?.hasPrefix("r:") == true)
            if provider == "apple" {
                // The name came in Apple's form post (first sign-in), the email in the signed token.
                #expect(user["authData"]?["apple"]?["name"] == "Sam Appleseed" && user["authData"]?["apple"]?["email"] == "sam@example.com")
                #expect(try await idp.appleSecretsAccepted().count == 1)
            }
        }
    }
}
