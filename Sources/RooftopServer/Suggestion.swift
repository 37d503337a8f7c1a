/// "did you mean …" for a mistyped configuration key.
package enum Suggestion {
    /// ` (did you mean mountPath?)`, or nothing when no known name is close. Names that share
    /// `commonPrefix` (`ROOFTOP_`) are compared without it, so the edits allowed are those of the
    /// words that differ.
    package static func hint(for name: String, among known: [String], commonPrefix: String = "") -> String {
        let strip = { (text: String) in text.hasPrefix(commonPrefix) ? String(text.dropFirst(commonPrefix.count)) : text }
        return nearest(to: strip(name), among: known.filter { $0.hasPrefix(commonPrefix) }.map(strip)).map { " (did you mean \(commonPrefix)\($0)?)" }
            ?? ""
    }

    /// The known name fewest edits away, ignoring case; none further than a third of its length
    /// (at least 2), so `mountpth` finds `mountPath` and `colour` finds nothing.
    package static func nearest(to name: String, among known: [String]) -> String? {
        let typed = Array(name.lowercased())
        var best: (name: String, distance: Int)?
        for candidate in known {
            let distance = editDistance(typed, Array(candidate.lowercased()))
            guard distance <= max(2, candidate.count / 3) else { continue }
            if best.map({ distance < $0.distance }) ?? true { best = (candidate, distance) }
        }
        return best?.name
    }

    /// Levenshtein distance: insertions, deletions and substitutions.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
