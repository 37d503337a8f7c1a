/// The refusal of a `ROOFTOP_*` environment variable that no configuration key reads, so a
/// mistyped name (`ROOFTOP_TRUST_PROXIES`) stops the start instead of being silently ignored.
///
/// `PARSE_SERVER_*` variables are not checked: Parse Server reads many Rooftop does not, and a
/// migrated deployment may still set them.
package enum UnknownVariables {
    /// `ROOFTOP_*` variables that are not configuration keys but are read by something else
    /// Rooftop ships, so they may be set in the environment `rooftop` runs in:
    /// - `ROOFTOP_TEST_` (a prefix): the test suites' settings (`ROOFTOP_TEST_VENV`,
    ///   `ROOFTOP_TEST_STORE`, `ROOFTOP_TEST_POSTGRES_URL`, …).
    /// - `ROOFTOP_RECORD_PAGES`: records the hosted pages' snapshots (`HostedPageSnapshotTests`).
    /// - `ROOFTOP_BENCH_VENV`, `ROOFTOP_BINARY`: the benchmark scripts' Python environment and binary.
    /// - `ROOFTOP_SERVER`, `ROOFTOP_STORAGE`, `ROOFTOP_BROWSER`, `ROOFTOP_SESSION_TOKEN`,
    ///   `ROOFTOP_USER_ID`: the SDK's examples and snippets (clients, not the server).
    package static let allowedPrefixes = ["ROOFTOP_TEST_"]
    /// The whole variables of the list above.
    package static let allowedNames: Set<String> = [
        "ROOFTOP_RECORD_PAGES", "ROOFTOP_BENCH_VENV", "ROOFTOP_BINARY", "ROOFTOP_SERVER", "ROOFTOP_STORAGE", "ROOFTOP_BROWSER",
        "ROOFTOP_SESSION_TOKEN", "ROOFTOP_USER_ID",
    ]

    /// Throws for the first (by name) `ROOFTOP_*` variable in `env` that no key or member reads
    /// (old spellings included) and that is not allowed above: one line with the nearest
    /// documented variable as a hint.
    package static func check(_ env: [String: String]) throws {
        let keys = ServerConfiguration.definitions.flatMap { [$0] + $0.members }
        let read = Set(keys.flatMap(\.variablesRead))
        let unknown = env.keys.sorted().first { name in
            name.hasPrefix(prefix) && !read.contains(name) && !allowedNames.contains(name)
                && !allowedPrefixes.contains(where: { name.hasPrefix($0) })
        }
        guard let unknown else { return }
        let documented = keys.flatMap(\.environmentNames)
        let hint = Suggestion.hint(for: unknown, among: documented, commonPrefix: prefix)
        throw ConfigError(
            "environment: unknown variable \(unknown)\(hint); no configuration key reads it — rename or unset it "
                + "(the variables are listed in docs/configuration.md)")
    }

    private static let prefix = "ROOFTOP_"
}
