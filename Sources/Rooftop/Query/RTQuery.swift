import Foundation
import RooftopCore

/// A query for objects of one class, as the user it belongs to may read them.
///
/// ```swift
/// let query = RTQuery(className: "Post")
/// query.whereKey("user", equalTo: user)
/// let posts = try await query.findObjects()
/// ```
///
/// Like an object, a query belongs to the user who was current when it was made, and so do the
/// objects it finds.
public final class RTQuery<T: RTObject>: @unchecked Sendable {
    /// The class searched.
    public let className: String
    private let lock = NSLock()
    private var conditions: [String: JSON] = [:]
    private var problem: RTError?
    private var ordering: [String] = []
    private var includes: [String] = []
    private var selected: [String]?
    private var limitValue = -1
    private var skipValue = 0
    private var owner: RTUser?
    var relatedTo: (object: RTObject, key: String)? {
        get { lock.withLock { relation } }
        set { lock.withLock { relation = newValue } }
    }
    private var relation: (object: RTObject, key: String)?

    init(typedClassName: String) {
        className = typedClassName
        owner = RTClient.currentIfInstalled?.users.activeUser
    }

    /// The most objects returned (the server's default, 100, when not set).
    public var limit: Int {
        get { lock.withLock { limitValue } }
        set { lock.withLock { limitValue = newValue } }
    }

    /// How many matching objects to pass over first.
    public var skip: Int {
        get { lock.withLock { skipValue } }
        set { lock.withLock { skipValue = newValue } }
    }

    /// Adds `constraint` (an operator and its operand) to `key`, keeping the others on that key.
    @discardableResult
    func constrain(_ key: String, _ op: String, _ value: @autoclosure () throws(RTError) -> JSON) -> Self {
        do {
            let operand = try value()
            lock.withLock {
                var members = conditions[key]?.objectValue ?? [:]
                if conditions[key] != nil, conditions[key]?.objectValue == nil || members["__type"] != nil { members = [:] }
                members[op] = operand
                conditions[key] = .object(members)
            }
        } catch {
            lock.withLock { problem = problem ?? error }
        }
        return self
    }

    /// `key` equal to `value` (an object matches its pointer; an array field matches when it
    /// contains `value`).
    @discardableResult
    public func whereKey(_ key: String, equalTo value: Any) -> Self {
        do {
            let operand = try ValueCoding.encode(value)
            lock.withLock { conditions[key] = operand.objectValue?.keys.contains(where: { $0.hasPrefix("$") }) == true ? ["$eq": operand] : operand }
        } catch {
            lock.withLock { problem = problem ?? error }
        }
        return self
    }

    /// `key` not equal to `value`.
    @discardableResult public func whereKey(_ key: String, notEqualTo value: Any) -> Self { constrain(key, "$ne", try ValueCoding.encode(value)) }
    /// `key` less than `value`.
    @discardableResult public func whereKey(_ key: String, lessThan value: Any) -> Self { constrain(key, "$lt", try ValueCoding.encode(value)) }
    /// `key` at most `value`.
    @discardableResult
    public func whereKey(_ key: String, lessThanOrEqualTo value: Any) -> Self { constrain(key, "$lte", try ValueCoding.encode(value)) }
    /// `key` greater than `value`.
    @discardableResult public func whereKey(_ key: String, greaterThan value: Any) -> Self { constrain(key, "$gt", try ValueCoding.encode(value)) }
    /// `key` at least `value`.
    @discardableResult
    public func whereKey(_ key: String, greaterThanOrEqualTo value: Any) -> Self { constrain(key, "$gte", try ValueCoding.encode(value)) }
    /// `key` one of `values`.
    @discardableResult public func whereKey(_ key: String, containedIn values: [Any]) -> Self {
        constrain(key, "$in", try ValueCoding.encode(values))
    }
    /// `key` none of `values`.
    @discardableResult
    public func whereKey(_ key: String, notContainedIn values: [Any]) -> Self { constrain(key, "$nin", try ValueCoding.encode(values)) }
    /// The array at `key` contains every one of `values`.
    @discardableResult
    public func whereKey(_ key: String, containsAllObjectsInArray values: [Any]) -> Self { constrain(key, "$all", try ValueCoding.encode(values)) }
    /// `key` has a value.
    @discardableResult public func whereKeyExists(_ key: String) -> Self { constrain(key, "$exists", true) }
    /// `key` has no value.
    @discardableResult public func whereKeyDoesNotExist(_ key: String) -> Self { constrain(key, "$exists", false) }

    /// The string at `key` matches `regex` (`modifiers`: `i`, `m`, `x`, `s`).
    @discardableResult
    public func whereKey(_ key: String, matchesRegex regex: String, modifiers: String? = nil) -> Self {
        constrain(key, "$regex", .string(regex))
        if let modifiers { constrain(key, "$options", .string(modifiers)) }
        return self
    }

    /// The string at `key` starts with `prefix` (index-friendly).
    @discardableResult
    public func whereKey(_ key: String, hasPrefix prefix: String) -> Self { constrain(key, "$regex", .string("^" + Self.quote(prefix))) }
    /// The string at `key` ends with `suffix`.
    @discardableResult
    public func whereKey(_ key: String, hasSuffix suffix: String) -> Self { constrain(key, "$regex", .string(Self.quote(suffix) + "$")) }
    /// The string at `key` contains `substring`.
    @discardableResult
    public func whereKey(_ key: String, contains substring: String) -> Self { constrain(key, "$regex", .string(Self.quote(substring))) }

    /// The object at `key` is one `query` finds.
    @discardableResult
    public func whereKey<U>(_ key: String, matchesQuery query: RTQuery<U>) -> Self { constrain(key, "$inQuery", try query.subquery()) }
    /// The object at `key` is not one `query` finds.
    @discardableResult
    public func whereKey<U>(_ key: String, doesNotMatchQuery query: RTQuery<U>) -> Self { constrain(key, "$notInQuery", try query.subquery()) }

    /// Sorts by `key`, ascending, replacing earlier orders.
    @discardableResult public func order(byAscending key: String) -> Self { lock.withLock { ordering = [key] }; return self }
    /// Sorts by `key`, descending, replacing earlier orders.
    @discardableResult public func order(byDescending key: String) -> Self { lock.withLock { ordering = ["-" + key] }; return self }
    /// Then by `key`, ascending.
    @discardableResult public func addAscendingOrder(_ key: String) -> Self { lock.withLock { ordering.append(key) }; return self }
    /// Then by `key`, descending.
    @discardableResult public func addDescendingOrder(_ key: String) -> Self { lock.withLock { ordering.append("-" + key) }; return self }
    /// Returns the objects that `key` points to in full (dotted paths for deeper ones).
    @discardableResult public func includeKey(_ key: String) -> Self { lock.withLock { includes.append(key) }; return self }
    /// Returns only `keys` of each object (and its id, timestamps and ACL).
    @discardableResult public func selectKeys(_ keys: [String]) -> Self { lock.withLock { selected = keys }; return self }

    /// Objects any of `queries` finds; all must be of one class.
    public static func orQuery(withSubqueries queries: [RTQuery<T>]) -> RTQuery<T> {
        let result = RTQuery<T>(typedClassName: queries.first?.className ?? "")
        do {
            guard !queries.isEmpty, queries.allSatisfy({ $0.className == result.className }) else {
                throw RTError(.invalidQuery, "orQuery needs at least one query, all of one class.")
            }
            var clauses: [JSON] = []
            for query in queries { clauses.append(try query.whereJSON()) }
            result.lock.withLock { result.conditions["$or"] = .array(clauses) }
        } catch {
            result.lock.withLock { result.problem = RTError.from(error) }
        }
        return result
    }

    /// `\Q…\E`, so every character of `text` matches itself.
    static func quote(_ text: String) -> String { "\\Q" + text.replacingOccurrences(of: "\\E", with: "\\E\\\\E\\Q") + "\\E" }

    /// The `where` object.
    func whereJSON() throws(RTError) -> JSON {
        let (conditions, problem, relation) = lock.withLock { (self.conditions, self.problem, self.relation) }
        if let problem { throw problem }
        var result = conditions
        if let relation {
            guard let id = relation.object.objectId else { throw RTError(.missingObjectId, "Save the object before querying its relation.") }
            result["$relatedTo"] = [
                "object": ["__type": "Pointer", "className": .string(relation.object.className), "objectId": .string(id)],
                "key": .string(relation.key),
            ]
        }
        return .object(result)
    }

    /// This query as the operand of `$inQuery` / `$notInQuery`.
    func subquery() throws(RTError) -> JSON { ["where": try whereJSON(), "className": .string(className)] }

    /// The user whose session the query's requests carry (bound now if it had none).
    var actingUser: RTUser? {
        lock.withLock {
            if owner == nil { owner = RTClient.currentIfInstalled?.users.activeUser }
            return owner
        }
    }

    /// The query parameters; `count` asks for the number of matches.
    func parameters(limit limitOverride: Int? = nil, count: Bool = false) throws(RTError) -> [(String, String)] {
        let conditions = try whereJSON()
        var parameters: [(String, String)] = [("where", JSONWriter.string(conditions, sortedKeys: true))]
        let ordering: [String] = lock.withLock { self.ordering }
        let includes: [String] = lock.withLock { self.includes }
        let selected: [String]? = lock.withLock { self.selected }
        let limitValue = limit, skipValue = skip
        if !ordering.isEmpty { parameters.append(("order", ordering.joined(separator: ","))) }
        if !includes.isEmpty { parameters.append(("include", includes.joined(separator: ","))) }
        if let selected { parameters.append(("keys", selected.joined(separator: ","))) }
        if let limit = limitOverride ?? (limitValue >= 0 ? limitValue : nil) { parameters.append(("limit", String(limit))) }
        if skipValue > 0 { parameters.append(("skip", String(skipValue))) }
        if count { parameters.append(("count", "1")) }
        return parameters
    }
}

extension RTQuery where T == RTObject {
    /// A query for objects of `className`.
    public convenience init(className: String) { self.init(typedClassName: className) }

    /// A query for objects of `className` (the spelling apps written for Parse's SDK use).
    public static func queryWithClassName(_ className: String) -> RTQuery<RTObject> { RTQuery(className: className) }
}
