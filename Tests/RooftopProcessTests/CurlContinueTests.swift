import Foundation
import HummingbirdTesting
import RooftopTesting
import Testing

/// `Expect: 100-continue` as a real client sends it: curl, started as a process.
@Suite struct CurlContinueTests: LiveServerTest {
    /// curl sends `Expect: 100-continue` with a large body and waits up to a second for the
    /// answer: it now comes at once.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")))
    func curlDoesNotWaitASecond() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let port = try #require(client.port)
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-continue-\(UUID().uuidString).png")
            try Data(pngBytes + [UInt8](repeating: 7, count: 200_000)).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            process.arguments = [
                "-s", "-o", "/dev/null", "-w", "%{http_code} %{time_total}", "-H", "X-Parse-Application-Id: \(testAppId)",
                "-H", "X-Parse-Master-Key: \(testMasterKey)", "-H", "Content-Type: image/png", "-H", "Expect: 100-continue",
                "--expect100-timeout", "5", "--data-binary", "@\(file.path)", "http://127.0.0.1:\(port)/parse/files/big.png",
            ]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let text = try await blocking { String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
            process.waitUntilExit()
            let parts = text.split(separator: " ")
            #expect(parts.first == "201", "\(text)")
            // Without the interim answer curl waits the whole --expect100-timeout (5 s).
            #expect((Double(parts.last ?? "") ?? 99) < 4, "\(text)")
        }
    }
}
