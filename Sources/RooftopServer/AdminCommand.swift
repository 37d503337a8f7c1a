import ArgumentParser
import Foundation
import Logging
import RooftopConsole
import RooftopCore
import RooftopCrypto
import RooftopServices
import RooftopStorage

/// `rooftop admin`: the console's admins (kept apart from the app's users). Passwords are read
/// from the terminal without echo, or from standard input's first line — never from an
/// argument, which other users' `ps` and the shell's history would show.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin", abstract: "Manage the admin console's admins.",
        subcommands: [Create.self, List.self, Delete.self, ResetPassword.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an admin; the password is read from the terminal or standard input.")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "The admin's name (letters, digits, '.', '_', '-', '@').") var name: String
        @Option(help: "owner (may change things) or read-only.") var role = "owner"
        @Flag(help: "Require an authenticator code (TOTP) at sign-in; prints the otpauth:// URI to add to the app.") var totp = false

        func run() async throws {
            guard let role = ConsoleRole(rawValue: role) else { throw ValidationError("--role is owner or read-only") }
            let password = try AdminCommand.readPassword("Password for \(name): ")
            try await AdminCommand.withAdmins(options) { admins in
                let secret = try await admins.create(name: name, password: password, role: role, totp: totp)
                print("created admin \(name) (\(role.rawValue))")
                if let secret {
                    print("add this to an authenticator app (it is shown once):")
                    print(TOTP.uri(secret: secret, account: name, issuer: "Rooftop Console"))
                }
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the admins.")
        @OptionGroup var options: ConfigOptions

        func run() async throws {
            try await AdminCommand.withAdmins(options) { admins in
                let all = try await admins.list()
                if all.isEmpty { print("no admins; create one with `rooftop admin create NAME`") }
                for (name, admin) in all {
                    let created = ParseDate(millisecondsSince1970: admin.createdAt).iso
                    let locked = admin.lockedUntil.map { " locked-until=\(ParseDate(millisecondsSince1970: $0).iso)" } ?? ""
                    print("\(name)  \(admin.role.rawValue)  totp=\(admin.totp == nil ? "no" : "yes")  created=\(created)\(locked)")
                }
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an admin and end their console sessions.")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "The admin's name.") var name: String

        func run() async throws {
            try await AdminCommand.withAdmins(options) { admins in
                guard try await admins.delete(name) else { throw CommandFailure("no admin named \(name)", status: CommandFailure.noInput) }
                print("deleted admin \(name)")
            }
        }
    }

    struct ResetPassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-password", abstract: "Set an admin's password (unlocks them and ends their console sessions).")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "The admin's name.") var name: String

        func run() async throws {
            let password = try AdminCommand.readPassword("New password for \(name): ")
            try await AdminCommand.withAdmins(options) { admins in
                guard try await admins.admin(name) != nil else { throw CommandFailure("no admin named \(name)", status: CommandFailure.noInput) }
                try await admins.resetPassword(name, to: password)
                print("password of admin \(name) changed")
            }
        }
    }

    /// Runs `body` with the configured database's admins (created and migrated when new, as
    /// for `serve`: the first admin usually comes before the first start).
    static func withAdmins(_ options: ConfigOptions, _ body: (ConsoleAdmins) async throws -> Void) async throws {
        let configuration = try options.loadForServing()
        var logger = Logger(label: "admin")
        logger.logLevel = .error
        let database = try Database.open(configuration, logger: logger)
        do {
            try await database.using { store in
                let admins = ConsoleAdmins(
                    store: store, hasher: BcryptPasswordHasher(cost: 10), codes: TOTPCodes(), policy: configuration.accounts.passwordPolicy,
                    clock: WallClock(),
                    lockoutThreshold: configuration.console.lockoutThreshold, lockoutDuration: configuration.console.lockoutDuration)
                try await body(admins)
            }
        } catch let refusal as ConsoleAdmins.Refusal {
            throw CommandFailure(refusal.description, status: CommandFailure.dataError)
        }
    }

    /// The password from the terminal without echo, else standard input's first line.
    static func readPassword(_ prompt: String) throws -> String {
        if isatty(STDIN_FILENO) != 0 {
            FileHandle.standardError.write(Data(prompt.utf8))
            var settings = termios()
            tcgetattr(STDIN_FILENO, &settings)
            let saved = settings
            settings.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSANOW, &settings)
            let line = readLine(strippingNewline: true)
            var restore = saved
            tcsetattr(STDIN_FILENO, TCSANOW, &restore)
            FileHandle.standardError.write(Data("\n".utf8))
            guard let line, !line.isEmpty else { throw ValidationError("no password given") }
            return line
        }
        guard let line = readLine(strippingNewline: true), !line.isEmpty else { throw ValidationError("no password on standard input") }
        return line
    }
}
