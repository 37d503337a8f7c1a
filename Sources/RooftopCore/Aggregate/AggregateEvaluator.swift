/// Runs pipeline stages over documents in memory.
public enum AggregateEvaluator {
    /// The documents after `stages`.
    public static func run(_ stages: [AggregatePipeline.Stage], on input: [[String: JSON]]) throws(ParseError) -> [[String: JSON]] {
        var docs = input
        for stage in stages {
            switch stage {
            case .match(let node):
                var kept: [[String: JSON]] = []
                for doc in docs where try DocumentMatcher.matches(node, doc) { kept.append(doc) }
                docs = kept
            case .group(let id, let compound, let accumulators):
                docs = group(docs, id: id, compound: compound, accumulators: accumulators)
            case .sort(let path, let descending):
                // Stable, so chained $sort stages order ties by the earlier stage.
                docs = docs.enumerated().sorted { l, r in
                    let c = JSONOrdering.compare(
                        DocumentMatcher.value(at: path, in: l.element) ?? .null, DocumentMatcher.value(at: path, in: r.element) ?? .null)
                    return c == 0 ? l.offset < r.offset : (descending ? c > 0 : c < 0)
                }.map(\.element)
            case .limit(let n): docs = Array(docs.prefix(n))
            case .skip(let n): docs = Array(docs.dropFirst(n))
            case .project(let include, let exclude):
                docs = docs.map { doc in
                    if include.isEmpty { return doc.filter { !exclude.contains($0.key) } }
                    return doc.filter { include.contains($0.key) || ($0.key == "objectId" && !exclude.contains("objectId")) }
                }
            case .count(let field): docs = [[field: .number(Double(docs.count))]]
            }
        }
        return docs
    }

    static func evaluate(_ expression: AggregatePipeline.Expression, _ doc: [String: JSON]) -> JSON? {
        switch expression {
        case .constant(let value): value
        case .field(let path): DocumentMatcher.value(at: path, in: doc)
        }
    }

    /// Running state of one accumulator.
    struct Running {
        var sum = 0.0
        var numbers = 0
        var extreme: JSON?
        var count = 0
    }

    static func group(
        _ docs: [[String: JSON]], id: [String: AggregatePipeline.Expression]?, compound: Bool,
        accumulators: [String: AggregatePipeline.Accumulator]
    ) -> [[String: JSON]] {
        var order: [JSON] = []
        var groups: [JSON: [String: Running]] = [:]
        for doc in docs {
            let key: JSON
            if let id {
                if compound {
                    key = .object(id.mapValues { evaluate($0, doc) ?? .null })
                } else {
                    key = id.values.first.flatMap { evaluate($0, doc) } ?? .null
                }
            } else {
                key = .null
            }
            if groups[key] == nil {
                order.append(key)
                groups[key] = [:]
            }
            for (name, accumulator) in accumulators {
                var state = groups[key]?[name] ?? Running()
                switch accumulator {
                case .count: state.count += 1
                case .sum(let e), .avg(let e):
                    if let n = evaluate(e, doc)?.numberValue {
                        state.sum += n
                        state.numbers += 1
                    }
                case .min(let e), .max(let e):
                    if let v = evaluate(e, doc), !v.isNull {
                        let c = state.extreme.map { JSONOrdering.compare(v, $0) } ?? (accumulator == .min(e) ? -1 : 1)
                        if case .min = accumulator, c < 0 { state.extreme = v }
                        if case .max = accumulator, c > 0 { state.extreme = v }
                    }
                }
                groups[key]?[name] = state
            }
        }
        return order.map { key in
            // Parse reports the group key as objectId.
            var out: [String: JSON] = ["objectId": key]
            for (name, accumulator) in accumulators {
                let state = groups[key]?[name] ?? Running()
                switch accumulator {
                case .count: out[name] = .number(Double(state.count))
                case .sum: out[name] = .number(state.sum)
                case .avg: out[name] = state.numbers == 0 ? .null : .number(state.sum / Double(state.numbers))
                case .min, .max: out[name] = state.extreme ?? .null
                }
            }
            return out
        }
    }
}
