package import RooftopCore
package import RooftopStorage

/// `/aggregate/:className` (master key only): `distinct` and pipelines.
///
/// Leading `$match` stages are compiled into SQL (so they use indexes); the remaining stages
/// run in memory over at most `aggregateInputLimit` objects, beyond which the request is
/// refused rather than answered from a silently truncated input.
package struct Aggregates: Sendable {
    let store: any DataStore
    let config: ServicesConfiguration

    /// Creates the use case over a store.
    package init(store: any DataStore, config: ServicesConfiguration) {
        self.store = store
        self.config = config
    }

    /// Stage names accepted as top-level parameters, in the order they run.
    static let stageParameters = ["$match", "$group", "$sort", "$skip", "$limit", "$project", "$count"]
    static let otherParameters: Set<String> = ["distinct", "where", "pipeline", "readPreference"]

    /// Runs `distinct` or a pipeline; returns the `results` array.
    package func run(_ className: ClassName, params: [String: JSON], principal: Principal) async throws -> [JSON] {
        guard principal.isMaster else { throw ParseError(.operationForbidden, "unauthorized: master key is required") }
        // As on finds: silently running without them would answer something else than was asked.
        if params["hint"] != nil { throw ParseError(.invalidQuery, "hint is not supported: the database chooses the index.") }
        if params["explain"] != nil { throw ParseError(.invalidQuery, "explain is not supported here: use rooftop explain.") }
        for key in params.keys where !Self.otherParameters.contains(key) && !Self.stageParameters.contains(key) {
            throw ParseError(.invalidQuery, "Invalid parameter for query: \(ClassName.printable(key))")
        }
        if let field = params["distinct"] {
            guard let name = field.stringValue else { throw ParseError(.invalidQuery, "distinct must be a field name") }
            let query = try params["where"].map { w throws(ParseError) in try QueryNode.parse(where: w, limits: config.queryLimits) } ?? .always
            return try await distinct(className, path: try FieldPath(parsing: name), query: query)
        }
        var stages: [AggregatePipeline.Stage] = []
        if let pipeline = params["pipeline"] {
            stages = try AggregatePipeline(json: pipeline, limits: config.queryLimits).stages
        }
        for name in Self.stageParameters {
            guard let spec = params[name] else { continue }
            stages.append(try AggregatePipeline.stage(name, spec, limits: config.queryLimits))
        }
        var leading: [QueryNode] = []
        while case .match(let node)? = stages.first {
            leading.append(node)
            stages.removeFirst()
        }
        let input = try await load(className, query: leading.count == 1 ? leading[0] : .and(leading))
        return try AggregateEvaluator.run(stages, on: input).map { JSON.object($0) }
    }

    private func distinct(_ className: ClassName, path: FieldPath, query: QueryNode) async throws -> [JSON] {
        var seen: Set<JSON> = []
        var values: [JSON] = []
        for doc in try await load(className, query: query) {
            guard let value = DocumentMatcher.value(at: path, in: doc) else { continue }
            for item in value.arrayValue ?? [value] where seen.insert(item).inserted { values.append(item) }
        }
        return values
    }

    /// The class's objects matching `query`, as documents (`ACL` left out).
    private func load(_ className: ClassName, query: QueryNode) async throws -> [[String: JSON]] {
        guard try await store.schema(className) != nil else { return [] }
        var options = FindOptions()
        options.limit = config.aggregateInputLimit + 1
        let request = FindRequest(className: className, query: query, options: options, scope: AccessScope(classes: [className: .master]))
        let objects = try await store.find(request)
        guard objects.count <= config.aggregateInputLimit else {
            throw ParseError(
                .invalidQuery, "More than \(config.aggregateInputLimit) objects to aggregate; narrow them with a leading $match.")
        }
        return objects.map { object in
            var doc = object.json
            doc["ACL"] = nil
            return doc
        }
    }
}
