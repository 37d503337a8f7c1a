/// Limits on query complexity; a query beyond any of them is refused with 102.
public struct QueryLimits: Sendable, Equatable {
    /// Deepest nesting of `$or`/`$and`/`$nor` and subqueries.
    public var maxDepth: Int
    /// Most values in one `$in`, `$nin`, `$all` or `$containedBy`.
    public var maxInValues: Int
    /// Most conditions in one query, counted over the whole tree.
    public var maxConditions: Int
    /// Most `include` paths.
    public var maxIncludes: Int
    /// Longest `$regex` pattern, in bytes.
    public var maxRegexLength: Int

    /// Creates limits; the defaults suit every SDK's ordinary queries.
    public init(maxDepth: Int = 8, maxInValues: Int = 1000, maxConditions: Int = 256, maxIncludes: Int = 32, maxRegexLength: Int = 1024) {
        self.maxDepth = maxDepth
        self.maxInValues = maxInValues
        self.maxConditions = maxConditions
        self.maxIncludes = maxIncludes
        self.maxRegexLength = maxRegexLength
    }
}
