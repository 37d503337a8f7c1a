import Foundation
import RooftopConsole
import RooftopHTTP

/// What `rooftop serve` prints once it listens: where the API and the console are, the keys,
/// a first request to try and, while the console has no admin, the command that creates one.
struct StartupBanner {
    let configuration: ServerConfiguration
    let keys: KeyFile
    /// The port the server listens on (the configured one may be 0: any free port).
    let port: Int
    /// Whether standard output is a terminal: a generated master key is shown only there, as
    /// under a process supervisor standard output goes to logs that outlive it.
    var interactive = isatty(STDOUT_FILENO) != 0
    /// `rooftop admin create …` while the console is served and has no admin; nil otherwise.
    var createAdmin: String?

    /// The lines, in order.
    var lines: [String] {
        let origin = "http://\(configuration.host):\(port)"
        let base = origin + configuration.httpSettings.mountPath
        var lines = ["Rooftop is listening at \(base) (data in \(configuration.dataDir), \(configuration.profile) profile)"]
        if keys.generated && interactive {
            lines.append("Generated keys, stored in \(configuration.dataDir)/keys.json (mode 0600):")
            lines.append("  application id: \(keys.appId)")
            lines.append("  master key:     \(keys.masterKey)")
        } else if keys.generated {
            lines.append("Generated keys, stored in \(configuration.dataDir)/keys.json (mode 0600); the master key is not printed here,")
            lines.append("as this output is not a terminal: read it from that file.")
            lines.append("  application id: \(keys.appId)")
        } else {
            lines.append("Application id: \(keys.appId) (keys in \(configuration.dataDir)/keys.json or your configuration)")
        }
        if configuration.console.isServed(besideAPIAt: configuration.httpSettings.mountPath) {
            lines.append("Admin console: \(origin)\(configuration.console.path)")
            if let createAdmin {
                lines.append("  It has no admin yet; create the first one (it asks for a password) with:")
                lines.append("    \(createAdmin)")
            }
        }
        lines.append("Try it:")
        lines.append("  curl -X POST -H 'X-Parse-Application-Id: \(keys.appId)' -H 'Content-Type: application/json' \\")
        lines.append("       -d '{\"title\":\"hello\"}' \(base)/classes/Note")
        return lines
    }

    /// Prints the lines and flushes: stdout is a pipe under process supervisors; the banner
    /// shows now, not at exit.
    func print() {
        Swift.print(lines.joined(separator: "\n"))
        fflush(nil)
    }

    /// `rooftop admin create NAME` with the options that find the database `serve` was started
    /// on, so it works as printed: `--data-dir` unless the default, `--config` when given, and
    /// `--database-url` when given as a flag (its password hidden as `config print` hides it: the
    /// banner may be logged).
    static func createAdminCommand(_ options: ConfigOptions, _ configuration: ServerConfiguration) -> String {
        var words = ["rooftop", "admin", "create", "NAME"]
        if configuration.dataDir != ServerConfiguration().dataDir { words += ["--data-dir", quoted(configuration.dataDir)] }
        if let file = options.config { words += ["--config", quoted(file)] }
        if let url = options.databaseURL { words += ["--database-url", quoted(ConfigKey.redactedURL(url))] }
        return words.joined(separator: " ")
    }

    /// `text` as one shell word: as is when it holds only characters no shell treats specially.
    static func quoted(_ text: String) -> String {
        let plain = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:@%+=,-")
        if !text.isEmpty, text.unicodeScalars.allSatisfy(plain.contains) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
