import HTTPTypes
import Hummingbird

/// Who may reach a console route.
enum ConsoleAccess: Sendable, Equatable {
    /// Anyone who may reach the console at all (the sign-in page, the style sheet).
    case anyone
    /// A signed-in admin of either role; a POST still carries the session's CSRF token.
    case signedIn
    /// A signed-in owner: read-only admins are refused with 403.
    case owner
}

/// One console page or action: method, path under the console's path, who may reach it, and
/// the handler. The whole console is the table in `ConsoleResponder+Routes.swift`, matched in
/// order, first match wins.
///
/// A pattern's segments are literals, `:name` (any one segment) or `:name(a|b|c)` (one of
/// those literals), so the table names every URL the console answers.
struct ConsoleRoute: Sendable {
    /// What answers: the console, the visit (its form, admin and language already read) and the
    /// path's parameters.
    typealias Handler = @Sendable (ConsoleResponder, inout ConsoleVisit, ConsolePathParameters) async throws -> Response

    /// A pattern segment.
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        case choice(String, Set<String>)
    }

    let method: HTTPRequest.Method
    let segments: [Segment]
    let access: ConsoleAccess
    let handler: Handler

    /// A route; `access` defaults to signed-in for GET and owner for POST (every change is an
    /// owner's).
    init(_ method: HTTPRequest.Method, _ pattern: String, _ access: ConsoleAccess? = nil, _ handler: @escaping Handler) {
        self.method = method
        self.segments = pattern.split(separator: "/").map(Self.segment)
        self.access = access ?? (method == .post ? .owner : .signedIn)
        self.handler = handler
    }

    static func segment(_ text: Substring) -> Segment {
        guard text.first == ":" else { return .literal(String(text)) }
        let body = text.dropFirst()
        guard let open = body.firstIndex(of: "("), body.last == ")" else { return .parameter(String(body)) }
        let choices = body[body.index(after: open)..<body.index(before: body.endIndex)].split(separator: "|").map(String.init)
        return .choice(String(body[..<open]), Set(choices))
    }

    /// The parameters when `method` and the path's segments (below the console's path) match.
    func match(_ method: HTTPRequest.Method, _ path: [String]) -> ConsolePathParameters? {
        guard method == self.method, path.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (segment, part) in zip(segments, path) {
            switch segment {
            case .literal(let text): guard part == text else { return nil }
            case .parameter(let name): values[name] = part
            case .choice(let name, let allowed):
                guard allowed.contains(part) else { return nil }
                values[name] = part
            }
        }
        return ConsolePathParameters(values: values)
    }
}

/// The values of a matched route's `:name` segments.
struct ConsolePathParameters: Sendable {
    let values: [String: String]

    /// The segment named `name`; empty only for a name the pattern lacks (a table mistake the
    /// route tests catch).
    subscript(_ name: String) -> String { values[name] ?? "" }
}
