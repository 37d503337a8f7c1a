import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopTesting
import Testing

/// The emailed reset link opened in a real headless Chromium (Debian's `chromium` and
/// `chromium-driver`, driven by selenium from `Tests/Support/reset_browser.py`): a password the
/// policy refuses shows its error, a good one changes the password; then the API agrees.
/// Screenshots of each step in English and Japanese land in `.build/test-artifacts/`.
@Suite struct BrowserResetTests: LiveServerTest {
    static let artifacts = SMTPTestServer.root.appendingPathComponent(".build/test-artifacts")

    /// Runs a program without blocking a Swift concurrency thread (the server under test needs
    /// them); its exit status and standard output.
    func run(_ executable: String, _ arguments: [String]) async throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let handle = output.fileHandleForReading
        let text = LockedBox("")
        let read = DispatchGroup()
        return try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { process in
                let status = process.terminationStatus
                read.notify(queue: .global()) { continuation.resume(returning: (status, text.withLock { $0 })) }
            }
            do {
                read.enter()
                try process.run()
                DispatchQueue.global().async {
                    let data = handle.readDataToEndOfFile()
                    text.withLock { $0 = String(decoding: data, as: UTF8.self) }
                    read.leave()
                }
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }

    @Test(arguments: [
        ("en", "Choose a new password", "Password must be at least 8 characters long.", "Password changed", "Use at least 8 characters."),
        ("ja", "新しいパスワードの設定", "パスワードは8文字以上にしてください。", "パスワードを変更しました", "8文字以上にしてください。"),
    ])
    func resetInABrowser(language: String, formTitle: String, policyError: String, doneTitle: String, rules: String) async throws {
        let server = try SMTPTestServer()
        let (mail, accounts) = mailSetup(server, verify: false)
        try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
        try await withServer(accounts: accounts, mail: mail) { client in
            let signup = try await call(
                client, .post, "/parse/users", body: #"{"username":"ana","password":"old password","email":"ana@example.com"}"#)
            let oldSession = try #require(signup.json["sessionToken"]?.stringValue)
            _ = try await call(
                client, .post, "/parse/requestPasswordReset", body: #"{"email":"ana@example.com"}"#, headers: ["Accept-Language": language])
            let (_, path) = try await link(server, message: 1)
            let port = try #require(client.port)
            let (status, output) = try await run(
                SMTPTestServer.python,
                [
                    SMTPTestServer.root.appendingPathComponent("Tests/Support/reset_browser.py").path, "http://127.0.0.1:\(port)\(path)", "short",
                    "a much better passphrase", Self.artifacts.appendingPathComponent("reset-\(language)").path, language,
                ])
            try #require(status == 0, "the browser script failed (is chromium-driver installed? run ./scripts/test): \(output)")
            let result = try JSONParser.parse(output)
            #expect(result["form_title"]?.stringValue == formTitle)
            // Before submitting: the rules, the account for password managers, the toggle.
            #expect(result["rules"]?.stringValue?.hasPrefix(rules) == true, "\(result["rules"] ?? .null)")
            #expect(result["username_field"]?.stringValue == "ana")
            #expect(result["revealed_type"]?.stringValue == "text" && result["toggle_pressed"]?.stringValue == "true")
            #expect(result["hidden_again_type"]?.stringValue == "password")
            // Japanese breaks between phrases, never inside a word.
            #expect(result["word_break"]?.stringValue == (language == "ja" ? "auto-phrase" : "normal"))
            #expect(result["error"]?.stringValue == policyError)
            #expect(result["result_title"]?.stringValue == doneTitle)
            for shot in result["screenshots"]?.arrayValue ?? [] {
                #expect(FileManager.default.fileExists(atPath: shot.stringValue ?? ""))
            }
            #expect(try await me(client, oldSession)["code"] == 209)
            let login = try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"a much better passphrase"}"#)
            #expect(login.status == 200)
        }
    }
}
