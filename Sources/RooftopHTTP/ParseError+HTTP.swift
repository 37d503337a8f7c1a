import Hummingbird
import RooftopCore

/// The one place where Parse error codes become HTTP statuses.
extension ParseError {
    /// 101 → 404, 1 → 500, 116 → 413, 155 → 429, everything else → 400.
    var httpStatus: HTTPResponse.Status {
        switch code {
        case .objectNotFound: .notFound
        case .internalServerError: .internalServerError
        case .objectTooLarge: .contentTooLarge
        case .requestLimitExceeded: .tooManyRequests
        default: .badRequest
        }
    }

    /// The `{"code":N,"error":"…"}` body.
    var body: JSON { ["code": .number(Double(code.rawValue)), "error": .string(message)] }
}

/// A key failure: 403 with `{"error":"…"}` and no code, as Parse answers.
struct UnauthorizedError: Error {
    let message: String
    static let unauthorized = UnauthorizedError(message: "unauthorized")
    static let masterRequired = UnauthorizedError(message: "unauthorized: master key is required")
}
