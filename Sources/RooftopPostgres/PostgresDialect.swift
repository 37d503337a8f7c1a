import Foundation
import RooftopCore
package import RooftopStorage

/// PostgreSQL's SQL: `jsonb` documents, `$n` placeholders, permission lists as `text[]`.
///
/// JSON values compare as `jsonb` (typed: `1`, `true` and `"1"` differ), so values compared with
/// them bind as JSON text cast to `jsonb`; strings known by the schema compare as text.
package struct PostgresDialect: SQLDialect {
    /// Creates the dialect.
    package init() {}

    /// PostgreSQL's form; see `SQLDialect`.
    package func placeholder(_ index: Int) -> String { "$\(index)" }

    /// Quoted, and shortened to PostgreSQL's 63-byte limit with a hash of the full name (a
    /// silently truncated name could collide with another class's table or index).
    package func quote(_ identifier: String) -> String {
        var name = identifier
        if name.utf8.count > 63 {
            name = String(decoding: name.utf8.prefix(46), as: UTF8.self) + "_" + Self.hash(identifier)
        }
        guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
        return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// FNV-1a, 64 bits, as 16 hex digits: stable across processes and versions.
    static func hash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// `'{a,b}'`: segments are validated identifiers, so they need no escaping.
    private func path(_ segments: [String]) -> String { "'{" + segments.joined(separator: ",") + "}'" }

    /// JSON null reads as SQL NULL, as a missing key does (Parse's `equalTo: null`).
    package func jsonValue(_ column: String, _ path: [String]) -> String {
        "NULLIF(\(column) #> \(self.path(path)), 'null'::jsonb)"
    }

    /// PostgreSQL's form; see `SQLDialect`.
    package func jsonText(_ column: String, _ path: [String]) -> String { "(\(column) #>> \(self.path(path)))" }

    /// The value as JSON text cast to `jsonb`.
    package func jsonOperand(_ value: SQLValue, placeholder: String) -> (sql: String, binding: SQLValue) {
        let json: String
        switch value {
        case .null: json = "null"
        case .integer(let n): json = String(n)
        case .real(let d): json = DocumentCoding.canonicalString(.number(d))
        case .text(let s): json = DocumentCoding.canonicalString(.string(s))
        case .bool(let b): json = b ? "true" : "false"
        case .json(let text): json = text
        }
        return ("\(placeholder)::jsonb", .text(json))
    }

    /// PostgreSQL's form; see `SQLDialect`.
    package func jsonString(_ expression: String) -> String {
        "(CASE WHEN jsonb_typeof(\(expression)) = 'string' THEN \(expression) #>> '{}' END)"
    }

    /// PostgreSQL sorts NULL last in ascending order unless told.
    package func order(descending: Bool) -> String { descending ? " DESC NULLS LAST" : " ASC NULLS FIRST" }

    /// `jsonb` as text, for the decoder every adapter shares.
    package func selectDocument(_ expression: String) -> String { "(\(expression))::text" }

    /// `text[]` as a JSON array text.
    package func selectPermissions(_ column: String) -> String { "array_to_json(\(column))::text" }

    /// PostgreSQL's form; see `SQLDialect`.
    package func jsonExists(_ column: String, _ path: [String]) -> String { "(\(column) #> \(self.path(path)))" }

    /// Only arrays have elements; anything else gives no rows (not an error).
    package func jsonArrayElements(_ column: String, _ path: [String]) -> String {
        let value = "(\(column) #> \(self.path(path)))"
        return "jsonb_array_elements(CASE WHEN jsonb_typeof(\(value)) = 'array' THEN \(value) END) AS elements(value)"
    }

    /// Only used for pointer ids, compared with text.
    package func elementValue(_ path: [String]) -> String { "(value #>> \(self.path(path)))" }

    /// `_rperm && ARRAY[…]`, which the GIN index on `_rperm` serves.
    package func permissionCheck(_ column: String, _ placeholders: [String]) -> String {
        "(\(column) IS NULL OR \(column) && ARRAY[\(placeholders.joined(separator: ", "))]::text[])"
    }

    /// PostgreSQL's form; see `SQLDialect`.
    package func removeKeys(_ document: String, _ keys: [String]) -> String {
        "(\(document) - '{\(keys.joined(separator: ","))}'::text[])"
    }

    /// `rt_regex`, a SQL function the migrations create over PostgreSQL's own regular expressions.
    package func regexMatch(_ value: String, pattern: String, options: String) -> String {
        "rt_regex(\(value), \(pattern), \(options))"
    }
}

extension PostgresDialect {
    /// PostgreSQL's advanced regular expressions, with Parse's (PCRE) meaning: `\Q…\E` becomes
    /// escaped literals, `\b`/`\B` word boundaries, and the options become embedded flags (`.`
    /// never matches a newline unless `s`; `^`/`$` match at line breaks only with `m`; `i` is
    /// `rt_regex`'s job).
    package func regexPattern(_ pattern: String, options: String) -> String {
        var out = ""
        var quoting = false
        var characters = pattern.makeIterator()
        while let c = characters.next() {
            if quoting {
                if c == "\\" {
                    guard let next = characters.next() else {
                        out += "\\\\"
                        break
                    }
                    if next == "E" {
                        quoting = false
                    } else {
                        out += "\\\\" + Self.literal(next)
                    }
                } else {
                    out += Self.literal(c)
                }
                continue
            }
            guard c == "\\", let next = characters.next() else {
                out.append(c)
                continue
            }
            switch next {
            case "Q": quoting = true
            case "b": out += "\\y"
            case "B": out += "\\Y"
            default: out += "\\" + String(next)
            }
        }
        let multiline = options.contains("m")
        let dotAll = options.contains("s")
        let flag: String
        switch (multiline, dotAll) {
        case (false, false): flag = "p"
        case (true, false): flag = "n"
        case (false, true): flag = ""
        case (true, true): flag = "w"
        }
        let expanded = options.contains("x") ? "x" : ""
        let flags = flag + expanded
        return flags.isEmpty ? out : "(?\(flags))" + out
    }

    /// `c` matched literally.
    private static func literal(_ c: Character) -> String {
        "\\^$.|?*+()[]{}".contains(c) ? "\\" + String(c) : String(c)
    }
}
