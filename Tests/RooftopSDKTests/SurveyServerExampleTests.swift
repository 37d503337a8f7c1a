import Foundation
import RooftopCore
import RooftopTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// `Examples/SurveyServer` (built by `./scripts/test` before the tests): the app's own server
/// binary, run as a real process, and its client program against it; then the same function
/// called over REST with surveys a hostile client would send.
extension SDKTests {
    @Suite struct SurveyServerExampleTests {
        /// Where `swift build --package-path Examples/SurveyServer` puts the two programs.
        static let binaries = ProgramRunner.repository.appendingPathComponent("Examples/SurveyServer/.build/debug")
        /// The command that builds them, for the failure message when they are missing.
        static let buildCommand = "swift build --package-path Examples/SurveyServer"
        /// The server's keys, given to it in its environment as a deployment would.
        static let appId = "survey-app-id"
        /// The master key the test reads the stored users with.
        static let masterKey = "survey-master"

        /// A running `survey-server serve` process on a free loopback port, its data in a
        /// temporary directory.
        struct ServerProcess {
            /// The running server.
            let process: Process
            /// Its HTTP port on 127.0.0.1.
            let port: Int
            /// The temporary directory of its data and log (and the app's storage).
            let directory: URL

            /// The server's URL, as the app is given it.
            var url: String { "http://127.0.0.1:\(port)/parse" }

            /// What the server printed, for a failure's message.
            var log: String { (try? String(contentsOf: directory.appendingPathComponent("server.log"), encoding: .utf8)) ?? "" }

            /// A REST call as a client of the app: the status and the JSON answer.
            func rest(
                _ method: String, _ path: String, body: String? = nil, token: String? = nil, master: Bool = false
            ) async throws -> (Int, JSON) {
                var request = URLRequest(url: try #require(URL(string: url + path)))
                request.httpMethod = method
                request.timeoutInterval = 10
                request.setValue(SurveyServerExampleTests.appId, forHTTPHeaderField: "X-Parse-Application-Id")
                if let token { request.setValue(token, forHTTPHeaderField: "X-Parse-Session-Token") }
                if master { request.setValue(SurveyServerExampleTests.masterKey, forHTTPHeaderField: "X-Parse-Master-Key") }
                if let body {
                    request.httpBody = Data(body.utf8)
                    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                }
                let (data, response) = try await URLSession.shared.data(for: request)
                return ((response as? HTTPURLResponse)?.statusCode ?? 0, data.isEmpty ? .null : try JSONParser.parse(data))
            }

            /// The user named `username`, as the master key reads it.
            func user(named username: String) async throws -> JSON? {
                let query = #"{"username":"\#(username)"}"#.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                let (status, answer) = try await rest("GET", "/users?where=" + query, master: true)
                #expect(status == 200, "\(answer)")
                return answer["results"]?.arrayValue?.first
            }
        }

        /// Starts the built `survey-server`, runs `body` against it, and stops the process by its
        /// PID however `body` ends.
        func withServer(_ body: (ServerProcess) async throws -> Void) async throws {
            let binary = Self.binaries.appendingPathComponent("survey-server")
            try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build it first: \(Self.buildCommand)")
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-survey-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let port = try Loopback.freePort()
            let process = Process()
            process.executableURL = binary
            process.arguments = ["serve", "--port", String(port), "--data-dir", directory.appendingPathComponent("data").path]
            process.environment = ["ROOFTOP_APP_ID": Self.appId, "ROOFTOP_MASTER_KEY": Self.masterKey]
            let logFile = directory.appendingPathComponent("server.log")
            _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
            let output = try FileHandle(forWritingTo: logFile)
            defer { try? output.close() }
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let server = ServerProcess(process: process, port: port, directory: directory)
            do {
                try await waitUntilHealthy(server)
                try await body(server)
            } catch {
                await stop(process)
                throw error
            }
            await stop(process)
        }

        /// Polls `/parse/health` until it answers 200 (bounded: 30 s, or the process ending).
        func waitUntilHealthy(_ server: ServerProcess) async throws {
            var healthy = false
            for _ in 0..<300 where !healthy && server.process.isRunning {
                healthy = (try? await server.rest("GET", "/health"))?.0 == 200
                if !healthy { try await Task.sleep(for: .milliseconds(100)) }
            }
            try #require(healthy, "survey-server did not answer /parse/health: \(server.log)")
        }

        /// SIGTERM by PID, then waits (bounded: 10 s); SIGKILL if it is still running.
        func stop(_ process: Process) async {
            guard process.isRunning else { return }
            kill(process.processIdentifier, SIGTERM)
            for _ in 0..<100 where process.isRunning { try? await Task.sleep(for: .milliseconds(100)) }
            if process.isRunning {
                Issue.record("survey-server did not stop within 10 s of SIGTERM")
                kill(process.processIdentifier, SIGKILL)
            }
        }

        /// A `finishSignUp` body: a good survey but for `overrides` (members' JSON text).
        func survey(_ overrides: [String: String]) -> String {
            let members = ["firstName": #""J""#, "lastName": #""K""#, "frequency": "0", "intensity": "0"].merging(overrides) { $1 }
            return #"{"survey":{"# + members.sorted { $0.key < $1.key }.map { #""\#($0.key)":\#($0.value)"# }.joined(separator: ",") + "}}"
        }

        /// survey-app's walk-through: sign-up, `finishSignUp`, the profile read back, a second
        /// completion refused; the user as stored.
        @Test func appCompletesItsSignUpThroughTheServersFunction() async throws {
            let app = Self.binaries.appendingPathComponent("survey-app")
            try #require(FileManager.default.isExecutableFile(atPath: app.path), "build it first: \(Self.buildCommand)")
            try await withServer { server in
                let storage = server.directory.appendingPathComponent("app-storage")
                let username = "runner-\(UUID().uuidString.prefix(8).lowercased())"
                let (status, output) = try ProgramRunner.runProcess(
                    app, ["--server", server.url, "--app-id", Self.appId, "--storage", storage.path, "--username", username],
                    environment: ProcessInfo.processInfo.environment.merging(["XDG_DATA_HOME": storage.path]) { $1 })
                #expect(status == 0, "\(output)\n\(server.log)")
                #expect(output.contains(#"✓ Sign-up complete: ["complete": true]"#), "\(output)")
                #expect(output.contains("✓ Profile: John Kotz, frequency 0, intensity 1, complete true"), "\(output)")
                #expect(output.contains("✓ Second completion refused: The sign-up is already complete."), "\(output)")

                let user = try await server.user(named: username)
                #expect(user?["firstName"] == "John")
                #expect(user?["lastName"] == "Kotz")
                #expect(user?["frequency"] == 0)
                #expect(user?["intensity"] == 1)
                #expect(user?["signUpComplete"] == true)

                // The after-save trigger recorded the completion, once.
                let (_, audit) = try await server.rest("GET", "/classes/AuditEntry", master: true)
                let entries = audit["results"]?.arrayValue ?? []
                #expect(entries.count == 1 && entries.first?["event"] == "signUpCompleted", "\(audit)")
                #expect(entries.first?["user"]?["objectId"] == user?["objectId"])

                // The job, started with the master key, counts what is left (nothing).
                let (jobStatus, _) = try await server.rest("POST", "/jobs/countIncompleteSignUps", body: "{}", master: true)
                #expect(jobStatus == 200)
                var runs: [JSON] = []
                for _ in 0..<100 {
                    runs = try await server.rest("GET", "/classes/_JobStatus", master: true).1["results"]?.arrayValue ?? []
                    if runs.first?["status"] == "succeeded" { break }
                    try await Task.sleep(for: .milliseconds(50))
                }
                #expect(runs.first?["status"] == "succeeded" && runs.first?["message"] == "0 sign-ups are not complete", "\(runs)")
            }
        }

        /// Surveys a client could send instead of the app's: each refused before anything is
        /// stored, and the user can still finish with a good one.
        @Test func hostileSurveysAreRefusedOverREST() async throws {
            try await withServer { server in
                let username = "hostile-\(UUID().uuidString.prefix(8).lowercased())"
                let (signUpStatus, signedUp) = try await server.rest(
                    "POST", "/users", body: #"{"username":"\#(username)","password":"a long password 1"}"#)
                #expect(signUpStatus == 201, "\(signedUp)")
                let token = try #require(signedUp["sessionToken"]?.stringValue)
                let userId = try #require(signedUp["objectId"]?.stringValue)

                let refused: [(body: String, message: String)] = [
                    (survey(["firstName": #"{"$gt":""}"#]), "survey.firstName must be a string."),
                    (survey(["frequency": "9"]), "survey.frequency must be a whole number from 0 to 3."),
                    (survey(["frequency": "1.5"]), "survey.frequency must be a whole number from 0 to 3."),
                    (survey(["intensity": #""2""#]), "survey.intensity must be a whole number from 0 to 2."),
                    ("{}", "Validation failed. Please specify data for survey."),
                    (#"{"survey":"firstName=John"}"#, "Validation failed. Invalid type for survey. Expected: object"),
                    (survey(["firstName": #""   ""#]), "survey.firstName must not be empty."),
                    (survey(["lastName": "\"\(String(repeating: "a", count: 10_000))\""]), "survey.lastName must be at most 100 characters."),
                    (survey(["firstName": #""J\u0000hn""#]), "survey.firstName must not contain control characters."),
                ]
                for (body, message) in refused {
                    let (status, answer) = try await server.rest("POST", "/functions/finishSignUp", body: body, token: token)
                    #expect(status == 400, "\(body.prefix(100)): \(answer)")
                    #expect(answer["code"] == 142, "\(body.prefix(100)): \(answer)")
                    #expect(answer["error"]?.stringValue == message, "\(body.prefix(100)): \(answer)")
                }

                let good = #"{"survey":{"firstName":"John","lastName":"Kotz","frequency":0,"intensity":1}}"#
                let (anonymousStatus, anonymous) = try await server.rest("POST", "/functions/finishSignUp", body: good)
                #expect(anonymousStatus == 400)
                #expect(anonymous["code"] == 142 && anonymous["error"] == "Validation failed. Please login to continue.", "\(anonymous)")

                // The same fields through the user route: refused by the before-save trigger.
                for body in [#"{"signUpComplete":true}"#, #"{"firstName":"Eve"}"#] {
                    let (status, answer) = try await server.rest("PUT", "/users/" + userId, body: body, token: token)
                    #expect(status == 400 && answer["code"] == 119, "\(body): \(answer)")
                }
                let batch = #"{"requests":[{"method":"PUT","path":"/parse/users/\#(userId)","body":{"signUpComplete":true}}]}"#
                let (_, batched) = try await server.rest("POST", "/batch", body: batch, token: token)
                #expect(batched.arrayValue?.first?["error"]?["code"] == 119, "\(batched)")

                let (_, untouched) = try await server.rest("GET", "/users/" + userId, master: true)
                for field in ["firstName", "lastName", "frequency", "intensity", "signUpComplete"] {
                    #expect(untouched[field] == nil, "\(field) was stored: \(untouched)")
                }

                let (status, answer) = try await server.rest("POST", "/functions/finishSignUp", body: good, token: token)
                #expect(status == 200 && answer["result"]?["complete"] == true, "\(answer)")
                let (_, completed) = try await server.rest("GET", "/users/" + userId, master: true)
                #expect(completed["firstName"] == "John" && completed["signUpComplete"] == true, "\(completed)")
            }
        }
    }
}
