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

    /// `requestComplexity`'s members (Parse Server 9's names) and the limits they set.
    static let complexityMembers: [ConfigKey] = [
        complexityLimit("batchRequestLimit", \.httpSettings.batchRequestLimit, "most sub-requests in one `/batch`"),
        complexityLimit("includeLimit", \.serviceSettings.queryLimits.maxIncludes, "most `include` paths in one query"),
        complexityLimit("subqueryLimit", \.serviceSettings.queryLimits.maxDepth, "deepest nesting of `$or`/`$and`/`$nor` and subqueries"),
        complexityLimit(
            "inValuesLimit", \.serviceSettings.queryLimits.maxInValues, "most values in one `$in`, `$nin`, `$all` or `$containedBy`"),
        complexityLimit("conditionLimit", \.serviceSettings.queryLimits.maxConditions, "most conditions in one query, subqueries included"),
        complexityLimit("regexLengthLimit", \.serviceSettings.queryLimits.maxRegexLength, "longest `$regex` pattern, in bytes"),
    ]

    private static func complexityLimit(
        _ name: String, _ field: any WritableKeyPath<ServerConfiguration, Int> & Sendable, _ description: String
    ) -> ConfigKey {
        .int("requestComplexity." + name, field, description, valid: { $0 > 0 }, problem: "must be a positive integer")
    }
}
