import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopTesting
import Testing

/// The second factor against a reference authenticator: `pyotp` (PyPI) computes codes exactly
/// as phone apps do, from the secret it made, for the server's (test) clock.
@Suite struct SecondFactorReferenceTests: LiveServerTest {
    /// pyotp's output for `script` (Python with `pyotp` imported), one line.
    func pyotp(_ script: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: SMTPTestServer.python)
        process.arguments = ["-c", "import pyotp\n" + script]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestEnvironmentError("pyotp failed (is it in \(SMTPTestServer.python)'s environment?)") }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// pyotp's code for `secret` at `offset` seconds from `clock`'s time.
    func code(_ secret: String, _ clock: TestClock, at offset: Int64) throws -> String {
        try pyotp("print(pyotp.TOTP('\(secret)').at(\(clock.now().millisecondsSince1970 / 1000 + offset)))")
    }

    @Test func pyotpsCodesEnrolAndSignIn() async throws {
        let clock = TestClock()
        let secret = try pyotp("print(pyotp.random_base32())")
        try await withServer(clock: clock) { (client: any TestClientProtocol) async throws in
            let signUp = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"pass phrase 1"}"#)
            let id = try #require(signUp.json["objectId"]?.stringValue)
            let session = ["X-Parse-Session-Token": try #require(signUp.json["sessionToken"]?.stringValue)]
            let body = #"{"authData":{"mfa":{"secret":"\#(secret)","token":"\#(try code(secret, clock, at: 0))"}}}"#
            let enrolled = try await call(client, .put, "/parse/users/\(id)", body: body, headers: session)
            #expect(enrolled.status == 200, "\(enrolled.json)")
            // pyotp's code for the next 30 seconds signs in; one from a minute ago does not.
            let login = { (token: String) in
                try await self.call(
                    client, .post, "/parse/login", body: #"{"username":"ana","password":"pass phrase 1","authData":{"mfa":{"token":"\#(token)"}}}"#)
            }
            #expect(try await login(try code(secret, clock, at: 30)).status == 200)
            clock.advance(by: .seconds(120))
            #expect(try await login(try code(secret, clock, at: -60)).json["code"] == 141)
            #expect(try await login(try code(secret, clock, at: 0)).status == 200)
        }
    }
}
