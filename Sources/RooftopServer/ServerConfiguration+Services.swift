import RooftopCore
import RooftopHTTP
import RooftopServices

extension ServerConfiguration {
    /// `defaultACL`: `"public"`/`"owner"` for every class, or `{"Todo":"owner","*":"public"}`
    /// (an object, or its JSON text from the environment).
    static func parseDefaultACL(_ value: ConfigValue) throws -> [String: DefaultACL] {
        if let text = value.json.stringValue, let policy = DefaultACL(rawValue: text) { return ["*": policy] }
        guard let object = try? value.object() else { throw value.error("must be public, owner or an object of them") }
        var result: [String: DefaultACL] = [:]
        for (name, json) in object {
            if name != "*" && !ClassName.isValid(name) { throw value.member(name, json).error("is not a valid class name") }
            let policy = DefaultACL(rawValue: (try? value.member(name, json).string()) ?? "")
            guard let policy else { throw value.error("values are public or owner") }
            result[name] = policy
        }
        return result
    }

    /// `requestComplexity`'s keys (Parse Server 9's names), the limits they set, and what for.
    static let complexityLimits: [(key: String, field: any WritableKeyPath<ServerConfiguration, Int> & Sendable, description: String)] = [
        ("batchRequestLimit", \.httpSettings.batchRequestLimit, "most sub-requests in one `/batch`"),
        ("includeLimit", \.serviceSettings.queryLimits.maxIncludes, "most `include` paths in one query"),
        ("subqueryLimit", \.serviceSettings.queryLimits.maxDepth, "deepest nesting of `$or`/`$and`/`$nor` and subqueries"),
        ("inValuesLimit", \.serviceSettings.queryLimits.maxInValues, "most values in one `$in`, `$nin`, `$all` or `$containedBy`"),
        ("conditionLimit", \.serviceSettings.queryLimits.maxConditions, "most conditions in one query, subqueries included"),
        ("regexLengthLimit", \.serviceSettings.queryLimits.maxRegexLength, "longest `$regex` pattern, in bytes"),
    ]

    /// `requestComplexity`: an object, or its JSON text (from the environment).
    mutating func applyComplexity(_ value: ConfigValue) throws {
        for (key, json) in try value.object() {
            guard let limit = Self.complexityLimits.first(where: { $0.key == key }) else {
                throw value.unknownMember(key, known: Self.complexityLimits.map(\.key))
            }
            let item = value.member(key, json)
            let n = try item.int()
            try item.require(n > 0, "must be a positive integer")
            self[keyPath: limit.field] = n
        }
    }

    /// The limits as `config print` shows them.
    var complexityJSON: JSON {
        .object(Dictionary(uniqueKeysWithValues: Self.complexityLimits.map { ($0.key, .number(Double(self[keyPath: $0.field]))) }))
    }
}
