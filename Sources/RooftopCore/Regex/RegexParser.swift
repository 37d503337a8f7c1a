/// The syntax tree of a bounded regular expression.
indirect enum RegexNode: Sendable {
    case empty
    case char(Character)
    case any
    case set(CharSet)
    case lineStart, lineEnd, textStart, textEnd, wordBoundary(Bool)
    case concat([RegexNode])
    case alternate([RegexNode])
    case `repeat`(RegexNode, min: Int, max: Int?)
}

/// Parses the supported regex syntax into `RegexNode`s.
struct RegexParser {
    let pattern: [Character]
    let extended: Bool
    var index = 0
    var depth = 0

    init(pattern: [Character], extended: Bool) {
        self.pattern = pattern
        self.extended = extended
    }

    private func unsupported(_ what: String) -> ParseError { ParseError(.invalidQuery, "Unsupported $regex: \(what).") }

    mutating func parseAll() throws(ParseError) -> RegexNode {
        let node = try parseAlternation()
        guard index == pattern.count else { throw unsupported("unbalanced parenthesis") }
        return node
    }

    private mutating func parseAlternation() throws(ParseError) -> RegexNode {
        var branches = [try parseConcat()]
        while index < pattern.count, pattern[index] == "|" {
            index += 1
            branches.append(try parseConcat())
        }
        return branches.count == 1 ? branches[0] : .alternate(branches)
    }

    private mutating func parseConcat() throws(ParseError) -> RegexNode {
        var items: [RegexNode] = []
        while index < pattern.count, pattern[index] != "|", pattern[index] != ")" {
            if extended, pattern[index].isWhitespace {
                index += 1
                continue
            }
            if extended, pattern[index] == "#" {
                while index < pattern.count, pattern[index] != "\n" { index += 1 }
                continue
            }
            if pattern[index] == "\\", index + 1 < pattern.count, pattern[index + 1] == "Q" {
                index += 2
                while index < pattern.count {
                    if pattern[index] == "\\", index + 1 < pattern.count, pattern[index + 1] == "E" {
                        index += 2
                        break
                    }
                    items.append(.char(pattern[index]))
                    index += 1
                }
                continue
            }
            let atom = try parseAtom()
            items.append(try parseQuantifier(atom))
        }
        return items.count == 1 ? items[0] : .concat(items)
    }

    private mutating func parseQuantifier(_ atom: RegexNode) throws(ParseError) -> RegexNode {
        guard index < pattern.count else { return atom }
        var node: RegexNode
        switch pattern[index] {
        case "*": node = .repeat(atom, min: 0, max: nil); index += 1
        case "+": node = .repeat(atom, min: 1, max: nil); index += 1
        case "?": node = .repeat(atom, min: 0, max: 1); index += 1
        case "{":
            guard let (lo, hi) = try parseBraces() else { return atom }
            node = .repeat(atom, min: lo, max: hi)
        default: return atom
        }
        if index < pattern.count, pattern[index] == "?" || pattern[index] == "+" { index += 1 }
        return node
    }

    /// `{n}`, `{n,}` or `{n,m}`; anything else is a literal `{`. A well-formed quantifier
    /// with `m < n` or a count over 9999 is refused rather than read as text or cut short,
    /// as PCRE and the databases' engines refuse it.
    private mutating func parseBraces() throws(ParseError) -> (Int, Int?)? {
        var i = index + 1
        var tooLarge = false
        func number() -> Int? {
            var digits = ""
            while i < pattern.count, pattern[i].isASCII, pattern[i].isNumber { digits.append(pattern[i]); i += 1 }
            if digits.count > 4 { tooLarge = true }
            return digits.isEmpty ? nil : Int(digits.prefix(4))
        }
        guard let lo = number() else { return nil }
        var hi: Int? = lo
        if i < pattern.count, pattern[i] == "," {
            i += 1
            hi = number()
        }
        guard i < pattern.count, pattern[i] == "}" else { return nil }
        if tooLarge { throw unsupported("repetition count over 9999") }
        if let hi, hi < lo { throw unsupported("numbers out of order in {} quantifier") }
        index = i + 1
        return (lo, hi)
    }

    private mutating func parseAtom() throws(ParseError) -> RegexNode {
        let c = pattern[index]
        index += 1
        switch c {
        case ".": return .any
        case "^": return .lineStart
        case "$": return .lineEnd
        case "(":
            if index < pattern.count, pattern[index] == "?" {
                guard index + 1 < pattern.count, pattern[index + 1] == ":" else { throw unsupported("look-around or named group") }
                index += 2
            }
            depth += 1
            guard depth <= 32 else { throw unsupported("nested too deeply") }
            let inner = try parseAlternation()
            depth -= 1
            guard index < pattern.count, pattern[index] == ")" else { throw unsupported("unbalanced parenthesis") }
            index += 1
            return inner
        case "[": return .set(try parseClass())
        case "\\": return try parseEscape(inClass: false).node
        case "*", "+", "?": throw unsupported("nothing to repeat")
        default: return .char(c)
        }
    }

    private mutating func parseEscape(inClass: Bool) throws(ParseError) -> (node: RegexNode, char: Character?) {
        guard index < pattern.count else { throw unsupported("trailing backslash") }
        let c = pattern[index]
        index += 1
        switch c {
        case "d", "w", "s", "D", "W", "S":
            let kind = Character(c.lowercased())
            return (.set(CharSet(classes: [(kind, c.isUppercase)])), nil)
        case "b" where !inClass: return (.wordBoundary(true), nil)
        case "B" where !inClass: return (.wordBoundary(false), nil)
        case "A" where !inClass: return (.textStart, nil)
        case "z", "Z": return (.textEnd, nil)
        case "n": return (.char("\n"), "\n")
        case "t": return (.char("\t"), "\t")
        case "r": return (.char("\r"), "\r")
        case "1"..."9": throw unsupported("back-references")
        default:
            guard !c.isLetter else { throw unsupported("escape \\\(c)") }
            return (.char(c), c)
        }
    }

    private mutating func parseClass() throws(ParseError) -> CharSet {
        var set = CharSet()
        if index < pattern.count, pattern[index] == "^" {
            set.negated = true
            index += 1
        }
        var first = true
        while index < pattern.count, pattern[index] != "]" || first {
            first = false
            var low = pattern[index]
            index += 1
            if low == "\\" {
                let escaped = try parseEscape(inClass: true)
                guard let char = escaped.char else {
                    if case .set(let inner) = escaped.node { set.classes += inner.classes }
                    continue
                }
                low = char
            }
            if index + 1 < pattern.count, pattern[index] == "-", pattern[index + 1] != "]" {
                index += 1
                var high = pattern[index]
                index += 1
                if high == "\\" {
                    guard let char = try parseEscape(inClass: true).char else { throw unsupported("bad class range") }
                    high = char
                }
                guard low <= high else { throw unsupported("bad class range") }
                set.ranges.append((low, high))
            } else {
                set.ranges.append((low, low))
            }
        }
        guard index < pattern.count else { throw unsupported("unterminated class") }
        index += 1
        return set
    }
}

/// Turns `RegexNode`s into Pike-VM instructions.
struct RegexCompiler {
    let multiline: Bool
    let dotAll: Bool
    let caseInsensitive: Bool
    var program: [BoundedRegex.Inst] = []

    init(multiline: Bool, dotAll: Bool, caseInsensitive: Bool) {
        self.multiline = multiline
        self.dotAll = dotAll
        self.caseInsensitive = caseInsensitive
    }

    mutating func emit(_ node: RegexNode) throws(ParseError) {
        guard program.count <= BoundedRegex.maxProgramSize else { throw ParseError(.invalidQuery, "$regex is too complex") }
        switch node {
        case .empty: break
        case .char(let c): program.append(.char(caseInsensitive ? Character(c.lowercased()) : c))
        case .any: program.append(.any(dotAll: dotAll))
        case .set(let set): program.append(.set(set))
        case .lineStart: program.append(multiline ? .lineStart : .textStart)
        case .lineEnd: program.append(multiline ? .lineEnd : .textEnd)
        case .textStart: program.append(.textStart)
        case .textEnd: program.append(.textEnd)
        case .wordBoundary(let b): program.append(.wordBoundary(b))
        case .concat(let items): for item in items { try emit(item) }
        case .alternate(let branches):
            var jumps: [Int] = []
            for (offset, branch) in branches.enumerated() {
                if offset < branches.count - 1 {
                    let split = program.count
                    program.append(.split(split + 1, 0))
                    try emit(branch)
                    jumps.append(program.count)
                    program.append(.jump(0))
                    program[split] = .split(split + 1, program.count)
                } else {
                    try emit(branch)
                }
            }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .repeat(let inner, let min, let max):
            guard min <= 1000, (max ?? 0) <= 1000 else { throw ParseError(.invalidQuery, "$regex is too complex") }
            for _ in 0..<min { try emit(inner) }
            if let max {
                var splits: [Int] = []
                for _ in min..<max {
                    splits.append(program.count)
                    program.append(.split(program.count + 1, 0))
                    try emit(inner)
                }
                for split in splits { program[split] = .split(split + 1, program.count) }
            } else {
                let split = program.count
                program.append(.split(split + 1, 0))
                try emit(inner)
                program.append(.jump(split))
                program[split] = .split(split + 1, program.count)
            }
        }
    }
}
