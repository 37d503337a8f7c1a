/// Settings of the admin console (`console` in the configuration).
package struct ConsoleConfiguration: Sendable, Equatable {
    /// Whether the console is served at all.
    package var enabled = true
    /// Where it is served: `/console` by default; must not be the API's mount path.
    package var path = "/console"
    /// Addresses or CIDR blocks the console answers; empty: any address.
    package var allowedAddresses: [String] = []
    /// Seconds without a request after which an admin session ends.
    package var idleTimeout = 1800
    /// Seconds after sign-in at which an admin session ends, however busy.
    package var absoluteTimeout = 43_200
    /// Sign-in attempts one address may make per minute.
    package var loginAttemptsPerMinute = 10
    /// Failed sign-ins (counted per admin) that lock the admin out.
    package var lockoutThreshold = 5
    /// Seconds such a lock lasts.
    package var lockoutDuration = 900

    /// The defaults.
    package init() {}

    /// Whether the console is served beside an API mounted at `mountPath`: it is on and not
    /// inside the API's path (nor the API inside its own), which would hide one's routes.
    package func isServed(besideAPIAt mountPath: String) -> Bool {
        let clashes = mountPath != "/" && (path == mountPath || path.hasPrefix(mountPath + "/") || mountPath.hasPrefix(path + "/"))
        return enabled && !clashes
    }
}
