import ArgumentParser
import Foundation
import RooftopCore
import RooftopHTTP
import RooftopServer
import RooftopServices
import Testing

/// Defaults < file < environment < flags, through the one key table.
@Suite struct ConfigurationLayeringTests {
    @Test func layersInOrder() throws {
        let dir = try TemporaryDirectory()
        try dir.write("rooftop.json", #"{"port":2000,"sessionLength":60,"mountPath":"/api","appName":"File"}"#)
        let env = ["PARSE_SERVER_SESSION_LENGTH": "120", "PARSE_SERVER_PORT": "3000", "ROOFTOP_APP_NAME": "Env", "PARSE_SERVER_APP_NAME": "Weaker"]
        let options = try ConfigOptions.parse(["--data-dir", dir.path, "--port", "4000"])
        let configuration = try options.load(environment: env)
        #expect(configuration.port == 4000)  // flag over environment over file
        #expect(configuration.accounts.sessionLength == 120)  // environment over file
        #expect(configuration.httpSettings.mountPath == "/api")  // file over default
        #expect(configuration.appName == "Env")  // ROOFTOP_ over PARSE_SERVER_
        #expect(configuration.host == "127.0.0.1")  // default
        #expect(configuration.dataDir == dir.path)
    }

    /// Each flag wins over the environment and the file for its key; the data directory the
    /// commands without a file read (`outbox`, `audit`, `explain`) layers the same way.
    @Test func everyFlagWinsOverEnvironmentAndFile() throws {
        let dir = try TemporaryDirectory()
        try dir.write("rooftop.json", #"{"host":"file.example","port":2000,"databaseURI":"postgres://file/db"}"#)
        let env = ["ROOFTOP_HOST": "env.example", "ROOFTOP_PORT": "3000", "ROOFTOP_DATABASE_URI": "postgres://env/db"]
        let flagged = try ConfigOptions.parse(["--data-dir", dir.path, "--host", "flag.example", "--database-url", "postgres://flag/db"])
            .load(environment: env)
        #expect(flagged.host == "flag.example" && flagged.port == 3000 && flagged.databaseURI == "postgres://flag/db")
        let unflagged = try ConfigOptions.parse([]).load(environment: env.merging(["ROOFTOP_DATA_DIR": dir.path]) { $1 })
        #expect(unflagged.dataDir == dir.path && unflagged.host == "env.example" && unflagged.databaseURI == "postgres://env/db")

        let location = try DataDirectoryOption.parse([])
        #expect(location.resolved(environment: [:]) == ServerConfiguration().dataDir)
        #expect(location.resolved(environment: ["ROOFTOP_DATA_DIR": "/from/env"]) == "/from/env")
        #expect(try DataDirectoryOption.parse(["--data-dir", "/flag"]).resolved(environment: ["ROOFTOP_DATA_DIR": "/from/env"]) == "/flag")
    }

    /// `--set` reaches any key or member, over the environment and the other flags, with the
    /// environment's reading of text and the table's messages.
    @Test func setReachesAnyKey() throws {
        let dir = try TemporaryDirectory()
        let env = ["ROOFTOP_SESSION_LENGTH": "120", "ROOFTOP_PASSWORD_POLICY_MIN_LENGTH": "10"]
        let options = try ConfigOptions.parse([
            "--data-dir", dir.path, "--port", "4000", "--set", "sessionLength=90", "--set", "passwordPolicy.minLength=12", "--set", "port=4001",
            "--set", "applicationId=fromSet",
        ])
        let configuration = try options.load(environment: env)
        #expect(configuration.accounts.sessionLength == 90 && configuration.accounts.passwordPolicy.minLength == 12)
        #expect(configuration.port == 4001 && configuration.appId == "fromSet")
        let refusals = [
            (["--set", "sesionLength=1"], "--set: unknown configuration key sesionLength (did you mean sessionLength?)"),
            (["--set", "port=abc"], "--set: port must be an integer"), (["--set", "port"], "--set port: expected name=value"),
        ]
        for (arguments, message) in refusals {
            #expect {
                _ = try ConfigOptions.parse(["--data-dir", dir.path] + arguments).load(environment: [:])
            } throws: { error in
                "\(error)" == message
            }
        }
    }

    @Test func aliasesInFileAndEnvironment() throws {
        var configuration = ServerConfiguration()
        try configuration.apply(["applicationId": "a", "url": "http://x/parse"], source: "file")
        #expect(configuration.appId == "a")
        #expect(configuration.serverURL == "http://x/parse")
        let env = ServerConfiguration.environmentValues([
            "PARSE_SERVER_APPLICATION_ID": "b", "ROOFTOP_DATABASE_URL": "postgres://u:p@h/db", "ROOFTOP_NOT_A_KEY": "x",
        ])
        #expect(env == ["appId": "b", "databaseURI": "postgres://u:p@h/db"])
    }

    @Test func unknownKeySuggestsTheNearest() throws {
        var configuration = ServerConfiguration()
        let error = #expect(throws: ConfigError.self) { try configuration.apply(["mountpth": "/x"], source: "rooftop.json") }
        #expect(error?.description == "rooftop.json: unknown configuration key mountpth (did you mean mountPath?)")
        let alias = #expect(throws: ConfigError.self) { try configuration.apply(["applicationID": "x"], source: "f") }
        #expect(alias?.description.hasSuffix("(did you mean applicationId?)") == true)
        let far = #expect(throws: ConfigError.self) { try configuration.apply(["colour": "red"], source: "f") }
        #expect(far?.description == "f: unknown configuration key colour")
        let nested = #expect(throws: ConfigError.self) { try configuration.apply(["mail": ["hots": "smtp.example.com"]], source: "f") }
        #expect(nested?.description == "f: unknown key mail.hots (did you mean host?)")
    }

    @Test func fileFlagMustExist() throws {
        let options = try ConfigOptions.parse(["--config", "/nonexistent/rooftop.json"])
        #expect(throws: ConfigError.self) { try options.load(environment: [:]) }
    }
}

/// A directory removed when the test ends.
final class TemporaryDirectory {
    let path: String
    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-config-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    func write(_ name: String, _ contents: String) throws { try contents.write(toFile: path + "/" + name, atomically: true, encoding: .utf8) }
}
