/// Periodic jobs shared by the nodes of one database.
package enum PeriodicJob {
    /// How old the last run must be for a new claim: nine tenths of the interval, so a node
    /// whose timer fires a little early still finds the job due.
    package static func due(_ interval: Int64) -> Int64 { interval - interval / 10 }
}
