package import RooftopCore

/// Refuses request data that carries Parse's denylisted keywords, anywhere in the body.
package enum RequestGuard {
    /// Throws 105 when `value` has a `__proto__`, `constructor` or BSON-code key at any depth
    /// (the console checks the bodies it builds with it too, so it refuses what the API refuses).
    package static func checkKeywords(_ value: JSON) throws(ParseError) {
        switch value {
        case .object(let members):
            for (key, member) in members {
                if key == "__proto__" || key == "constructor" || (key == "_bsontype" && member == "Code") {
                    throw ParseError(.invalidKeyName, "Prohibited keyword in request data: \(key).")
                }
                try checkKeywords(member)
            }
        case .array(let items): for item in items { try checkKeywords(item) }
        default: break
        }
    }
}
