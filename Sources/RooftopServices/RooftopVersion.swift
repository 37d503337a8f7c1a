/// This build's version: what `rooftop --version` prints and `/serverInfo` reports.
package enum RooftopVersion {
    /// Semantic version of the server and its protocol support.
    package static let current = "0.9.0"
}
