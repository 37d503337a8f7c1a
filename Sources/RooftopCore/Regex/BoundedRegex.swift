/// A regular-expression matcher that runs in time linear in the input (a Pike VM).
///
/// `$regex` is client input: a backtracking engine would let one request stall a core with a
/// pattern like `(a+)+$`. This engine supports what Parse SDKs send — literals, `.`, classes,
/// `\d\w\s` (and negations), `\b`, anchors, groups, `|`, `* + ? {n,m}` (lazy forms match the same
/// set), `\Q…\E` and the options `imxs` — and refuses back-references and look-arounds (102).
public struct BoundedRegex: Sendable {
    enum Inst: Sendable {
        case char(Character)
        case any(dotAll: Bool)
        case set(CharSet)
        case split(Int, Int)
        case jump(Int)
        case lineStart, lineEnd, textStart, textEnd, wordBoundary(Bool)
        case match
    }

    let program: [Inst]
    let caseInsensitive: Bool

    /// The largest compiled program accepted; bigger patterns are refused with 102.
    public static let maxProgramSize = 4096

    /// Compiles `pattern` with Parse/Mongo `options` (a subset of `imxs`).
    public init(_ pattern: String, options: String = "") throws(ParseError) {
        var parser = RegexParser(pattern: Array(pattern), extended: options.contains("x"))
        let node = try parser.parseAll()
        var compiler = RegexCompiler(multiline: options.contains("m"), dotAll: options.contains("s"), caseInsensitive: options.contains("i"))
        try compiler.emit(node)
        compiler.program.append(.match)
        guard compiler.program.count <= BoundedRegex.maxProgramSize else { throw ParseError(.invalidQuery, "$regex is too complex") }
        program = compiler.program
        caseInsensitive = options.contains("i")
    }

    /// Whether the pattern matches anywhere in `text`.
    public func matches(_ text: String) -> Bool {
        let chars = caseInsensitive ? Array(text.lowercased()) : Array(text)
        var current: [Int] = []
        var next: [Int] = []
        var onList = [Int](repeating: -1, count: program.count)
        for position in 0...chars.count {
            // Unanchored search: a new thread starts at every position.
            addThread(&current, 0, position, chars, &onList, generation: position)
            if current.isEmpty && position == chars.count { break }
            next.removeAll(keepingCapacity: true)
            for pc in current {
                switch program[pc] {
                case .match: return true
                case .char(let c):
                    if position < chars.count, chars[position] == c {
                        addThread(&next, pc + 1, position + 1, chars, &onList, generation: position + 1)
                    }
                case .any(let dotAll):
                    if position < chars.count, dotAll || chars[position] != "\n" {
                        addThread(&next, pc + 1, position + 1, chars, &onList, generation: position + 1)
                    }
                case .set(let set):
                    if position < chars.count, set.contains(chars[position], caseInsensitive: caseInsensitive) {
                        addThread(&next, pc + 1, position + 1, chars, &onList, generation: position + 1)
                    }
                default: break
                }
            }
            swap(&current, &next)
            if position == chars.count { break }
        }
        return current.contains { if case .match = program[$0] { true } else { false } }
    }

    /// Follows jumps, splits and assertions, adding each reachable consuming state once per position.
    private func addThread(_ list: inout [Int], _ start: Int, _ position: Int, _ chars: [Character], _ onList: inout [Int], generation: Int) {
        var stack = [start]
        while let pc = stack.popLast() {
            guard onList[pc] != generation else { continue }
            onList[pc] = generation
            switch program[pc] {
            case .jump(let target): stack.append(target)
            case .split(let a, let b):
                stack.append(b)
                stack.append(a)
            case .lineStart: if position == 0 || chars[position - 1] == "\n" { stack.append(pc + 1) }
            case .lineEnd: if position == chars.count || chars[position] == "\n" { stack.append(pc + 1) }
            case .textStart: if position == 0 { stack.append(pc + 1) }
            case .textEnd: if position == chars.count { stack.append(pc + 1) }
            case .wordBoundary(let expected):
                let before = position > 0 && CharSet.isWord(chars[position - 1])
                let after = position < chars.count && CharSet.isWord(chars[position])
                if (before != after) == expected { stack.append(pc + 1) }
            default: list.append(pc)
            }
        }
    }
}

/// A character class.
struct CharSet: Sendable {
    var ranges: [(Character, Character)] = []
    var classes: [(kind: Character, negated: Bool)] = []
    var negated = false

    func contains(_ c: Character, caseInsensitive: Bool) -> Bool {
        var hit = ranges.contains { c >= $0.0 && c <= $0.1 } || classes.contains { CharSet.inClass($0.kind, c) != $0.negated }
        if !hit, caseInsensitive {
            let upper = Character(c.uppercased())
            hit = ranges.contains { upper >= $0.0 && upper <= $0.1 }
        }
        return hit != negated
    }

    static func isWord(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }

    static func inClass(_ kind: Character, _ c: Character) -> Bool {
        switch kind {
        case "d": c.isASCII && c.isNumber
        case "w": c.isASCII && (c.isLetter || c.isNumber || c == "_")
        case "s": c.isWhitespace
        default: false
        }
    }
}
