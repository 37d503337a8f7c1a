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
