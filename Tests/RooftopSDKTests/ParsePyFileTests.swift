import Foundation
import RooftopCore
import RooftopServer
import RooftopServices
import RooftopTesting
import Testing

/// An unmodified third-party Parse SDK (ParsePy, from PyPI) uploads a file, saves it in an
/// object, reads the object back and downloads the file from the URL it holds — with public
/// files as Parse, and with `fileAccess: signed`, where the URLs it is handed are signed.
extension SDKTests {
    @Suite struct ParsePyFileTests {
        @Test(arguments: [FileAccess.public, .signed]) func aParseSDKUploadsAndDownloadsAFile(access: FileAccess) async throws {
            try await withSDK(files: { $0.access = access }) { server, _ in
                let script = ProgramRunner.repository.appendingPathComponent("Tests/Support/parsepy_files.py").path
                let (status, output) = try ProgramRunner.runProcess(URL(fileURLWithPath: SMTPTestServer.python), [script, server.url, sdkAppId])
                #expect(status == 0, "\(output)")
                let line = try #require(output.split(separator: "\n").last.map(String.init), "\(output)")
                let answer = try JSONParser.parse(line)
                #expect(answer["content"] == "Working at Parse is great!", "\(output)")
                let name = try #require(answer["name"]?.stringValue)
                #expect(name.wholeMatch(of: /[0-9a-f]{32}_notes\.txt/) != nil)
                let readURL = try #require(answer["readURL"]?.stringValue)
                #expect(readURL.contains("signature=") == (access == .signed), "\(readURL)")
                #expect(try #require(answer["uploadURL"]?.stringValue).contains("signature=") == (access == .signed))
            }
        }
    }
}
