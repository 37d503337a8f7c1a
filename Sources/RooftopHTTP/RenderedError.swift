import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import RooftopCore
import RooftopServices

/// An error that says how the API answers it: its status, Parse code and message. The one
/// renderer (`ErrorRenderer`) writes every answer's bytes; an error type the API answers
/// conforms here, next to the others, rather than in a switch. Any other error is a fault: 500,
/// logged.
protocol RenderedError: Error {
    /// How the client sees this failure; what it must not see goes to `logger`.
    func failure(logger: Logger) -> ErrorRenderer.Failure
}

extension ParseError: RenderedError {
    func failure(logger: Logger) -> ErrorRenderer.Failure {
        ErrorRenderer.Failure(status: ErrorRenderer.status(of: code), code: code.rawValue, message: message)
    }
}

extension UnauthorizedError: RenderedError {
    /// Parse answers a key failure with `error` alone.
    func failure(logger: Logger) -> ErrorRenderer.Failure { ErrorRenderer.Failure(status: .forbidden, code: nil, message: message) }
}

extension RateLimiter.Limited: RenderedError {
    func failure(logger: Logger) -> ErrorRenderer.Failure {
        ErrorRenderer.Failure(status: .tooManyRequests, code: ParseError.Code.connectionFailed.rawValue, message: message, retryAfter: retryAfter)
    }
}

extension FileAccessDenied: RenderedError {
    func failure(logger: Logger) -> ErrorRenderer.Failure {
        ErrorRenderer.Failure(status: .forbidden, code: ParseError.Code.operationForbidden.rawValue, message: message)
    }
}

extension FileTooLargeError: RenderedError {
    /// Parse's code and message for an upload over `maxUploadSize`, with the status of any body
    /// that is too large.
    func failure(logger: Logger) -> ErrorRenderer.Failure {
        ErrorRenderer.Failure(status: .contentTooLarge, code: ParseError.Code.fileSaveError.rawValue, message: message)
    }
}

extension HTTPError: RenderedError {
    /// A body over the limit is 413; a path outside the mount path is 404; any other is ours.
    func failure(logger: Logger) -> ErrorRenderer.Failure {
        switch status {
        case .contentTooLarge: ErrorRenderer.tooLarge
        case .notFound: ErrorRenderer.Failure(status: .notFound, code: nil, message: "Not found.")
        default: ErrorRenderer.fault(self, logger: logger)
        }
    }
}

/// An API request's JSON body over `maxBodySize`: 413 with Parse's 116, naming the setting (and
/// its variable) that raises the limit.
struct BodyTooLarge: Error, RenderedError {
    /// `maxBodySize`, in bytes.
    let limit: Int

    func failure(logger: Logger) -> ErrorRenderer.Failure {
        ErrorRenderer.Failure(
            status: .contentTooLarge, code: ParseError.Code.objectTooLarge.rawValue,
            message: "Request body is too large: the limit is \(limit) bytes (the maxBodySize setting, ROOFTOP_MAX_BODY_SIZE).")
    }

    /// Whether `error` is a body over its limit: declared (`HTTPError`) or counted while read.
    static func isTooLarge(_ error: any Error) -> Bool {
        error is NIOTooManyBytesError || (error as? HTTPError)?.status == .contentTooLarge
    }
}

extension NIOTooManyBytesError: RenderedError {
    func failure(logger: Logger) -> ErrorRenderer.Failure { ErrorRenderer.tooLarge }
}

extension HTTPParserError: RenderedError {
    /// Not HTTP, or a client that hung up halfway through its body: the client's doing, so not
    /// logged as a fault of ours (the answer rarely reaches it).
    func failure(logger: Logger) -> ErrorRenderer.Failure {
        logger.info("request not read to its end", metadata: ["error": "\(self)"])
        return ErrorRenderer.Failure(status: .badRequest, code: ParseError.Code.invalidJSON.rawValue, message: "The request could not be read.")
    }
}

extension CancellationError: RenderedError {
    /// The stop's grace period ran out (`gracefulShutdownTimeout`): not a fault.
    func failure(logger: Logger) -> ErrorRenderer.Failure {
        logger.warning("request cut short by shutdown")
        return ErrorRenderer.Failure(
            status: .internalServerError, code: ParseError.Code.internalServerError.rawValue, message: "The server is shutting down.")
    }
}
