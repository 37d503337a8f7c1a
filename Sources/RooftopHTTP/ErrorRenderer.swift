import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import RooftopCore
import RooftopServices

/// The one place where a failure becomes an answer: its HTTP status, headers and body bytes.
///
/// Every body has the same key order, `{"code":N,"error":"…"}`, written by hand rather than from
/// a dictionary (whose order varies between instances), so two failures that must look alike —
/// a wrong password and an unknown user — are byte-identical.
enum ErrorRenderer {
    /// A failure as the client sees it.
    struct Failure: Equatable {
        var status: HTTPResponse.Status
        /// Parse's code; `nil` only for key failures, which Parse answers with `error` alone.
        var code: Int?
        var message: String
        /// Seconds, for 429.
        var retryAfter: Int? = nil
    }

    /// What `error` tells the client: its own answer when it is a `RenderedError` (every error
    /// the server means to answer is); anything else is a fault of ours, logged with its
    /// cause, which the client never sees (SQL, paths).
    static func failure(_ error: any Error, logger: Logger) -> Failure {
        if let rendered = error as? any RenderedError { return rendered.failure(logger: logger) }
        return fault(error, logger: logger)
    }

    /// 500 for an unexpected failure, its cause in the log only.
    static func fault(_ error: any Error, logger: Logger) -> Failure {
        logger.error("request failed", metadata: ["error": "\(error)"])
        return Failure(status: .internalServerError, code: ParseError.internalError.code.rawValue, message: ParseError.internalError.message)
    }

    static let tooLarge = Failure(status: .contentTooLarge, code: ParseError.Code.objectTooLarge.rawValue, message: "Request body is too large.")

    /// Parse's mapping: 101 → 404, 1 → 500, 116 → 413, 155 → 429, everything else → 400.
    static func status(of code: ParseError.Code) -> HTTPResponse.Status {
        switch code {
        case .objectNotFound: .notFound
        case .internalServerError: .internalServerError
        case .objectTooLarge: .contentTooLarge
        case .requestLimitExceeded: .tooManyRequests
        default: .badRequest
        }
    }

    /// `{"code":N,"error":"…"}`, or `{"error":"…"}` without a code.
    static func body(_ failure: Failure) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(failure.message.utf8.count + 24)
        out.append(UInt8(ascii: "{"))
        if let code = failure.code {
            out.append(contentsOf: "\"code\":\(code),".utf8)
        }
        out.append(contentsOf: "\"error\":".utf8)
        JSONWriter.writeString(failure.message, into: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// A batch item's own failure, always with a code (a key failure inside a batch is 119);
    /// `nil` for failures that fail the whole batch.
    static func batchItemBody(_ error: any Error) -> [UInt8]? {
        switch error {
        case let error as ParseError: body(Failure(status: .badRequest, code: error.code.rawValue, message: error.message))
        case let error as UnauthorizedError:
            body(Failure(status: .forbidden, code: ParseError.Code.operationForbidden.rawValue, message: error.message))
        default: nil
        }
    }

    /// The answer for a Parse error (nothing to log).
    static func response(_ error: ParseError) -> Response {
        ParseResponder.json(
            body(Failure(status: status(of: error.code), code: error.code.rawValue, message: error.message)), status: status(of: error.code))
    }

    /// The whole answer for `error`.
    static func response(_ error: any Error, logger: Logger) -> Response {
        let failure = failure(error, logger: logger)
        var response = ParseResponder.json(body(failure), status: failure.status)
        if let retryAfter = failure.retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        return response
    }
}
