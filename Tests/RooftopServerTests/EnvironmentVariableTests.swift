import ArgumentParser
import Foundation
import RooftopCore
import RooftopHTTP
import RooftopServer
import Testing

/// The environment layer: a list as a JSON array or comma-separated, and the refusal of a
/// `ROOFTOP_*` variable nothing reads.
@Suite struct EnvironmentVariableTests {
    private func load(_ environment: [String: String]) throws -> ServerConfiguration {
        let dir = try TemporaryDirectory()
        return try ConfigOptions.parse(["--data-dir", dir.path]).load(environment: environment)
    }

    /// docs/configuration.md: "a list is a JSON array or comma-separated text", in a variable too.
    @Test func listVariableTakesAJSONArray() throws {
        let json = try load(["ROOFTOP_TRUST_PROXY": #"["10.0.0.0/8","127.0.0.1"]"#])
        #expect(json.httpSettings.trustedProxies == ["10.0.0.0/8", "127.0.0.1"])
        let spaced = try load(["ROOFTOP_WEBHOOK_HOSTS": #" [ "hooks.example.com", "10.0.0.1:8080" ] "#])
        #expect(spaced.webhookHosts == ["hooks.example.com", "10.0.0.1:8080"])
        let commas = try load(["ROOFTOP_TRUST_PROXY": "10.0.0.0/8, 127.0.0.1"])
        #expect(commas.httpSettings.trustedProxies == ["10.0.0.0/8", "127.0.0.1"])
        let error = #expect(throws: ConfigError.self) { try load(["ROOFTOP_TRUST_PROXY": #"["10.0.0.0/8",7.5]"#]) }
        #expect(error?.description == "ROOFTOP_TRUST_PROXY: trustProxy.1 must be a string")
    }

    /// Every list-valued key and member reads a JSON array's text as its comma-separated form.
    @Test func everyListKeyTakesAJSONArray() throws {
        let lists = ServerConfiguration.definitions.flatMap { [$0] + $0.members }.filter { $0.kind == .list }
        #expect(lists.count >= 4)
        for key in lists {
            func outcome(_ text: String) -> String {
                var configuration = ServerConfiguration()
                do {
                    try configuration.apply(
                        [key.name.split(separator: ".").first.map(String.init) ?? key.name: memberValue(key, text)], source: "env")
                    return JSONWriter.string(configuration.redacted, sortedKeys: true)
                } catch {
                    return "\(error)"
                }
            }
            #expect(outcome(#"["127.0.0.1","10.0.0.1"]"#) == outcome("127.0.0.1, 10.0.0.1"), "\(key.name)")
        }
    }

    /// The value of `key` (a plain key or an object's member) as its variable's text gives it.
    private func memberValue(_ key: ConfigKey, _ text: String) -> JSON {
        key.name.contains(".") ? .object([key.memberName: .string(text)]) : .string(text)
    }

    @Test func unknownVariableIsRefusedWithTheNearestName() throws {
        let error = #expect(throws: ConfigError.self) { try load(["ROOFTOP_TRUST_PROXIES": "10.0.0.1"]) }
        #expect(
            error?.description
                == "environment: unknown variable ROOFTOP_TRUST_PROXIES (did you mean ROOFTOP_TRUST_PROXY?); no configuration key reads it — "
                + "rename or unset it (the variables are listed in docs/configuration.md)")
        let member = #expect(throws: ConfigError.self) { try load(["ROOFTOP_MAIL_HOTS": "smtp.example.com"]) }
        #expect(member?.description.hasPrefix("environment: unknown variable ROOFTOP_MAIL_HOTS (did you mean ROOFTOP_MAIL_HOST?);") == true)
        let far = #expect(throws: ConfigError.self) { try load(["ROOFTOP_COLOUR": "red"]) }
        #expect(far?.description.hasPrefix("environment: unknown variable ROOFTOP_COLOUR; no configuration key") == true)
    }

    /// Old spellings, Parse's own variables, the allowed non-key variables and other programs'
    /// variables start as before.
    @Test func knownAndAllowedVariablesAreNotRefused() throws {
        let configuration = try load([
            "ROOFTOP_AUTH_REDIRECT_UR_IS": "https://app.example/done", "PARSE_SERVER_NOT_OURS": "x", "ROOFTOP_TEST_ANYTHING": "x",
            "ROOFTOP_TEST_VENV": "/tmp/v", "ROOFTOP_RECORD_PAGES": "1", "ROOFTOP_SERVER": "http://127.0.0.1:1337/parse",
            "ROOFTOP_APPLICATION_ID": "alias", "ROOFTOP_MAIL_HOST": "smtp.example.com", "ROOFTOPS": "x", "HOME": "/root",
        ])
        #expect(configuration.appId == "alias" && configuration.mail.host == "smtp.example.com")
    }

    /// Every `ROOFTOP_*` name the repository's code, scripts and tests read or set is a key's
    /// variable or allowed (a name that ends in `_` is a prefix, not a variable), so none of them stops a server the tests or scripts start.
    @Test func everyVariableTheRepositoryUsesIsAccepted() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let deliberatelyUnknown: Set = ["ROOFTOP_NOT_A_KEY", "ROOFTOP_TRUST_PROXIES", "ROOFTOP_MAIL_HOTS", "ROOFTOP_COLOUR"]
        let pattern = try NSRegularExpression(pattern: "ROOFTOP_[A-Z0-9_]*[A-Z0-9](?![A-Z0-9_])")
        var names: Set<String> = []
        for folder in ["Sources", "Tests", "scripts", ".ci", "Examples"] {
            let walker = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
            while let file = walker?.nextObject() as? String {
                if file.hasSuffix(".build") { walker?.skipDescendants() }
                guard !file.contains(".build"), let text = try? String(contentsOf: root.appendingPathComponent(folder + "/" + file), encoding: .utf8)
                else { continue }
                for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    if let range = Range(match.range, in: text) { names.insert(String(text[range])) }
                }
            }
        }
        #expect(names.contains("ROOFTOP_TEST_VENV") && names.contains("ROOFTOP_TRUST_PROXY"))
        for name in names.subtracting(deliberatelyUnknown).sorted() {
            #expect(throws: Never.self, "\(name)") { try UnknownVariables.check([name: "x"]) }
        }
    }
}
