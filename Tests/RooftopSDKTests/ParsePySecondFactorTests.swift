import Foundation
import RooftopCore
import RooftopTesting
import Testing

/// An unmodified third-party Parse SDK (ParsePy) enrols a second factor with `pyotp`'s codes and
/// logs in with it on Parse's wire (`authData.mfa`): Parse's answers, each code once.
extension SDKTests {
    @Suite struct ParsePySecondFactorTests {
        @Test func aParseSDKEnrolsAndLogsInWithACode() async throws {
            try await withSDK { server, _ in
                let script = ProgramRunner.repository.appendingPathComponent("Tests/Support/parsepy_mfa.py").path
                let (status, output) = try ProgramRunner.runProcess(URL(fileURLWithPath: SMTPTestServer.python), [script, server.url, sdkAppId])
                #expect(status == 0, "\(output)")
                let line = try #require(output.split(separator: "\n").last.map(String.init), "\(output)")
                let answer = try JSONParser.parse(line)
                let missing: JSON = ["code": -1, "error": "Missing additional authData mfa"]
                #expect(answer["recoveryCount"] == 10, "\(output)")
                #expect(answer["sdkLogin"] == missing && answer["withoutCode"] == missing, "\(output)")
                #expect(answer["code"] == ["session": true, "mfa": ["status": "enabled"]], "\(output)")
                #expect(answer["codeAgain"] == ["code": 141, "error": "Invalid MFA token"], "\(output)")
                #expect(answer["recovery"] == ["session": true], "\(output)")
                #expect(answer["recoveryAgain"] == ["code": 141, "error": "Invalid MFA token"], "\(output)")
            }
        }
    }
}
