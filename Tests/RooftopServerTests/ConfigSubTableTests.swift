import ArgumentParser
import Foundation
import RooftopCore
import RooftopServer
import RooftopServices
import Testing

/// The nested objects (`mail`, `passwordPolicy`, `accountLockout`, `securityNotifications`,
/// `requestComplexity`, `console`, `fileUpload`) are sub-tables: each member is a key with its own variables,
/// its own row in the reference and its own line in `config print`.
@Suite struct ConfigSubTableTests {
    static let objects: Set = [
        "mail", "passwordPolicy", "accountLockout", "securityNotifications", "requestComplexity", "console", "fileUpload", "passkeys",
    ]

    func load(file: String, environment: [String: String]) throws -> ServerConfiguration {
        let dir = try TemporaryDirectory()
        try dir.write("rooftop.json", file)
        return try ConfigOptions.parse(["--data-dir", dir.path]).load(environment: environment)
    }

    @Test func theNestedObjectsHaveMembers() {
        let withMembers = ServerConfiguration.definitions.filter { !$0.members.isEmpty }
        #expect(Set(withMembers.map(\.name)) == Self.objects)
        for key in withMembers { #expect(key.members.allSatisfy { $0.name == key.name + "." + $0.memberName }) }
    }

    @Test func aMemberVariableWinsOverTheFilesObject() throws {
        let configuration = try load(
            file:
                #"{"mail":{"transport":"smtp","host":"file.example.com","port":587},"passwordPolicy":{"minLength":10},"console":{"path":"/admin"}}"#,
            environment: [
                "ROOFTOP_MAIL_HOST": "env.example.com", "PARSE_SERVER_MAIL_PORT": "2525", "ROOFTOP_PASSWORD_POLICY_MIN_LENGTH": "12",
                "ROOFTOP_REQUEST_COMPLEXITY_INCLUDE_LIMIT": "4", "ROOFTOP_SECURITY_NOTIFICATIONS_NEW_DEVICE": "false",
                "ROOFTOP_FILE_UPLOAD_ENABLE_FOR_PUBLIC": "true",
            ])
        #expect(configuration.mail.host == "env.example.com")
        #expect(configuration.mail.port == 2525)
        #expect(configuration.mail.transport == "smtp")  // the file's, untouched
        #expect(configuration.accounts.passwordPolicy.minLength == 12)
        #expect(configuration.serviceSettings.queryLimits.maxIncludes == 4)
        #expect(!configuration.accounts.securityNotifications.newDevice && configuration.accounts.securityNotifications.passwordChanged)
        #expect(configuration.redacted["console"]?["path"] == "/admin")  // the file's, beside the variables
        #expect(configuration.files.enableForPublic && !configuration.files.enableForAnonymousUser)
    }

    /// `authRedirectURIs` is `ROOFTOP_AUTH_REDIRECT_URIS`; the spelling it had before
    /// (`…_UR_IS`) still works, and the right one wins when both are set.
    @Test func anAcronymsPluralKeepsItsVariable() throws {
        let old = try load(file: "{}", environment: ["ROOFTOP_AUTH_REDIRECT_UR_IS": "com.example.app:/old"])
        #expect(old.accounts.authRedirectURIs == ["com.example.app:/old"])
        let both = try load(
            file: "{}",
            environment: [
                "ROOFTOP_AUTH_REDIRECT_UR_IS": "com.example.app:/old", "ROOFTOP_AUTH_REDIRECT_URIS": "com.example.app:/new",
            ])
        #expect(both.accounts.authRedirectURIs == ["com.example.app:/new"])
    }

    @Test func membersOfOneObjectAreCheckedTogether() throws {
        // Neither variable alone makes a lockout or an smtp transport; together they do.
        let configuration = try load(
            file: "{}",
            environment: [
                "ROOFTOP_ACCOUNT_LOCKOUT_THRESHOLD": "3", "ROOFTOP_ACCOUNT_LOCKOUT_DURATION": "5", "ROOFTOP_MAIL_TRANSPORT": "smtp",
                "ROOFTOP_MAIL_HOST": "h",
            ])
        #expect(configuration.accounts.lockout?.threshold == 3 && configuration.accounts.lockout?.duration == 300)
        #expect(configuration.mail.transport == "smtp")
        let error = #expect(throws: ConfigError.self) { try load(file: "{}", environment: ["ROOFTOP_MAIL_TRANSPORT": "smtp"]) }
        #expect(error?.description == "ROOFTOP_MAIL_TRANSPORT: mail.host is required with the smtp transport")
        let port = #expect(throws: ConfigError.self) { try load(file: "{}", environment: ["ROOFTOP_MAIL_PORT": "0"]) }
        #expect(port?.description == "ROOFTOP_MAIL_PORT: mail.port must be a positive integer")
    }

    @Test func theObjectVariableStillWorks() throws {
        let configuration = try load(
            file: #"{"mail":{"from":"a@example.com"}}"#,
            environment: [
                "ROOFTOP_MAIL": #"{"transport":"smtp","host":"object.example.com","port":25}"#, "ROOFTOP_MAIL_PORT": "2525",
                "PARSE_SERVER_ACCOUNT_LOCKOUT": #"{"threshold":4,"duration":2}"#,
            ])
        #expect(configuration.mail.host == "object.example.com" && configuration.mail.transport == "smtp")
        #expect(configuration.mail.from == "a@example.com")  // the file's member, not in the variable's object
        #expect(configuration.mail.port == 2525)  // a member's variable wins over its object's
        #expect(configuration.accounts.lockout?.threshold == 4)
    }

    @Test func anUnknownMemberIsRefusedWithTheNearestName() throws {
        for object in ServerConfiguration.definitions where !object.members.isEmpty {
            for member in object.members where member.memberName.count > 6 {
                let typo = String(member.memberName.dropLast())
                var configuration = ServerConfiguration()
                let error = #expect(throws: ConfigError.self) { try configuration.apply([object.name: [typo: true]], source: "f") }
                #expect(error?.description.hasSuffix("(did you mean \(member.memberName)?)") == true, "\(object.name).\(typo)")
            }
        }
        var configuration = ServerConfiguration()
        let error = #expect(throws: ConfigError.self) { try configuration.apply(["console": ["pth": "/x"]], source: "f") }
        #expect(error?.description == "f: unknown key console.pth (did you mean path?)")
        let policy = #expect(throws: ConfigError.self) { try configuration.apply(["passwordPolicy": ["minLenght": 9]], source: "f") }
        #expect(policy?.description == "f: passwordPolicy.minLenght is not supported (did you mean minLength?)")
    }

    @Test func configPrintShowsEveryMemberAndRedactsTheMailPassword() throws {
        let dir = try TemporaryDirectory()
        let options = try ConfigOptions.parse(["--data-dir", dir.path])
        let configuration = try options.load(environment: ["ROOFTOP_MAIL_PASSWORD": "smtp-secret", "ROOFTOP_MAIL_USERNAME": "postmaster"])
        #expect(configuration.mail.password == "smtp-secret")
        let text = try configuration.printout()
        #expect(!text.contains("smtp-secret"))
        let printed = try JSONParser.parse(text)
        #expect(printed["mail"]?["password"] == "<redacted>")
        #expect(printed["mail"]?["username"] == "postmaster")
        for object in ServerConfiguration.definitions where !object.members.isEmpty {
            let shown = Set(printed[object.name]?.objectValue?.keys.map { $0 } ?? [])
            #expect(shown == Set(object.members.map(\.memberName)), "\(object.name)")
        }
    }

    @Test func everyMemberHasItsRowInTheReference() {
        let reference = ConfigReference.markdown()
        for object in ServerConfiguration.definitions where !object.members.isEmpty {
            for member in object.members {
                let variable = "ROOFTOP_" + ConfigKey.upperSnake(object.name) + "_" + ConfigKey.upperSnake(member.memberName)
                #expect(reference.contains("| `\(member.name)` | `\(variable)` | "), "\(member.name)")
            }
        }
        #expect(reference.contains("| `mail.password` | `ROOFTOP_MAIL_PASSWORD` |  | unset | string, secret: "))
    }
}
