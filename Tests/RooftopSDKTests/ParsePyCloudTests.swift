import Foundation
import RooftopCore
import RooftopServer
import RooftopTesting
import Testing

/// An unmodified third-party Parse SDK (ParsePy, from PyPI) calls a Swift cloud function as a
/// signed-in user and reads Parse Config: the routes and answers are Parse's.
extension SDKTests {
    @Suite struct ParsePyCloudTests {
        @Test func aParseSDKCallsFunctionsAndReadsConfig() async throws {
            var cloud = CloudCode()
            cloud.define("hello", rules: FunctionRules(requireUser: true, fields: ["name": FieldRule(.string, required: true)])) { request in
                ["greeting": .string("Hello, \(request.params["name"]?.stringValue ?? "")"), "signedIn": .bool(request.userId != nil)]
            }
            try await withSDK(cloud: cloud) { server, _ in
                let put = #"{"params":{"welcome":"Hi","limit":3,"secret":"x"},"masterKeyOnly":{"secret":true}}"#
                #expect(try await server.rest("PUT", "/config", body: put, master: true).0 == 200)
                let script = ProgramRunner.repository.appendingPathComponent("Tests/Support/parsepy_cloud.py").path
                let (status, output) = try ProgramRunner.runProcess(
                    URL(fileURLWithPath: SMTPTestServer.python), [script, server.url, sdkAppId])
                #expect(status == 0, "\(output)")
                let line = try #require(output.split(separator: "\n").last.map(String.init), "\(output)")
                let answer = try JSONParser.parse(line)
                #expect(answer["function"] == ["result": ["greeting": "Hello, ParsePy", "signedIn": true]], "\(output)")
                #expect(answer["config"] == ["welcome": "Hi", "limit": 3], "\(output)")
            }
        }
    }
}
