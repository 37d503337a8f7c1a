public import Foundation

/// A Parse error code: the numbers of `parse-protocol.md` §8, named.
public struct RTErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The number the server sends.
    public let rawValue: Int

    /// A code from its number (servers may send codes of their own).
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The number, for printing.
    public var description: String { String(rawValue) }

    /// -1: an error with no better code (email already verified, reset-page errors).
    public static let otherCause = Self(rawValue: -1)
    /// 1: the server failed.
    public static let internalServer = Self(rawValue: 1)
    /// 100: the server could not be reached, or refused the request (rate limit).
    public static let connectionFailed = Self(rawValue: 100)
    /// 101: no such object, or no access to it; wrong username or password.
    public static let objectNotFound = Self(rawValue: 101)
    /// 102: a malformed query.
    public static let invalidQuery = Self(rawValue: 102)
    /// 103: a malformed class name.
    public static let invalidClassName = Self(rawValue: 103)
    /// 104: an object id is missing.
    public static let missingObjectId = Self(rawValue: 104)
    /// 105: a malformed or reserved key.
    public static let invalidKeyName = Self(rawValue: 105)
    /// 106: a malformed pointer.
    public static let invalidPointer = Self(rawValue: 106)
    /// 107: malformed JSON (either way).
    public static let invalidJSON = Self(rawValue: 107)
    /// 108: an operation the server does not know.
    public static let commandUnavailable = Self(rawValue: 108)
    /// 109: the SDK was used before `Rooftop.initialize`.
    public static let notInitialized = Self(rawValue: 109)
    /// 111: a value of the wrong type for its field.
    public static let incorrectType = Self(rawValue: 111)
    /// 116: the object is too large.
    public static let objectTooLarge = Self(rawValue: 116)
    /// 119: the operation is not allowed (class-level permissions, `emailVerified`, …).
    public static let operationForbidden = Self(rawValue: 119)
    /// 120: a result was not in the cache.
    public static let cacheMiss = Self(rawValue: 120)
    /// 121: `$` or `.` in a nested key.
    public static let invalidNestedKey = Self(rawValue: 121)
    /// 123: a malformed ACL.
    public static let invalidACL = Self(rawValue: 123)
    /// 124: the request timed out.
    public static let timeout = Self(rawValue: 124)
    /// 125: a malformed email address.
    public static let invalidEmailAddress = Self(rawValue: 125)
    /// 137: a value that must be unique is not.
    public static let duplicateValue = Self(rawValue: 137)
    /// 139: a malformed role name.
    public static let invalidRoleName = Self(rawValue: 139)
    /// 141: cloud code failed.
    public static let scriptFailed = Self(rawValue: 141)
    /// 142: a validation failed (password policy, required field).
    public static let validationError = Self(rawValue: 142)
    /// 155: too many requests.
    public static let requestLimitExceeded = Self(rawValue: 155)
    /// 159: a request id was reused.
    public static let duplicateRequest = Self(rawValue: 159)
    /// 200: the username is missing.
    public static let usernameMissing = Self(rawValue: 200)
    /// 201: the password is missing.
    public static let userPasswordMissing = Self(rawValue: 201)
    /// 202: the username is taken.
    public static let usernameTaken = Self(rawValue: 202)
    /// 203: the email address is taken.
    public static let userEmailTaken = Self(rawValue: 203)
    /// 204: the email address is missing.
    public static let userEmailMissing = Self(rawValue: 204)
    /// 205: no user with that email, or the email is not verified yet.
    public static let userWithEmailNotFound = Self(rawValue: 205)
    /// 206: changing a user needs that user's session.
    public static let userCannotBeAlteredWithoutSession = Self(rawValue: 206)
    /// 207: users are created by signing up.
    public static let userCanOnlyBeCreatedThroughSignUp = Self(rawValue: 207)
    /// 208: this account is already linked to another user.
    public static let accountAlreadyLinked = Self(rawValue: 208)
    /// 209: the session is invalid, expired or revoked: log in again.
    public static let invalidSessionToken = Self(rawValue: 209)
    /// 250: a linked account has no id.
    public static let linkedIdMissing = Self(rawValue: 250)
    /// 251: a linked account's session is invalid.
    public static let invalidLinkedSession = Self(rawValue: 251)
    /// 252: the login provider is not supported or is disabled.
    public static let unsupportedService = Self(rawValue: 252)
    /// 255: a schema operation failed.
    public static let invalidSchemaOperation = Self(rawValue: 255)
    /// 600: several errors (one per object of a `saveAll`).
    public static let aggregateError = Self(rawValue: 600)
}

/// `kRTErrorObjectNotFound`, as apps written for Parse's Objective-C SDK spell it.
public let kRTErrorObjectNotFound = RTErrorCode.objectNotFound.rawValue
/// `kRTErrorInvalidSessionToken`.
public let kRTErrorInvalidSessionToken = RTErrorCode.invalidSessionToken.rawValue
/// `kRTErrorUsernameTaken`.
public let kRTErrorUsernameTaken = RTErrorCode.usernameTaken.rawValue
/// `kRTErrorUserEmailTaken`.
public let kRTErrorUserEmailTaken = RTErrorCode.userEmailTaken.rawValue
/// `kRTErrorConnectionFailed`.
public let kRTErrorConnectionFailed = RTErrorCode.connectionFailed.rawValue

/// An error from the server (its Parse code and message) or from the SDK itself.
///
/// Bridged to `NSError` with domain `"Rooftop"`, `code` the Parse code and `userInfo["error"]`
/// the message, so `error.userInfo["error"]` works as in apps written for Parse's SDK.
public struct RTError: Error, Sendable, Equatable, CustomStringConvertible, CustomNSError, LocalizedError {
    /// The Parse code.
    public let code: RTErrorCode
    /// The server's message, or the SDK's.
    public let message: String

    /// Creates an error.
    public init(_ code: RTErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `RTError(code N): message`.
    public var description: String { "RTError(code \(code.rawValue)): \(message)" }
    /// `"Rooftop"`.
    public static var errorDomain: String { "Rooftop" }
    /// The Parse code.
    public var errorCode: Int { code.rawValue }
    /// `error`: the message; `code`: the code, as Parse's SDKs put them.
    public var errorUserInfo: [String: Any] { ["error": message, "code": code.rawValue, NSLocalizedDescriptionKey: message] }
    /// The message.
    public var errorDescription: String? { message }

    /// Any error as an `RTError`: ours unchanged, a network failure as 100 (or 124 for a timeout).
    static func from(_ error: any Error) -> RTError {
        if let error = error as? RTError { return error }
        if let error = error as? URLError {
            return error.code == .timedOut
                ? RTError(.timeout, "The request timed out.") : RTError(.connectionFailed, "The connection failed: \(error.localizedDescription)")
        }
        if error is CancellationError { return RTError(.connectionFailed, "The request was cancelled.") }
        return RTError(.otherCause, "\(error)")
    }

    /// The error as the `NSError` the completion handlers pass.
    var nsError: NSError { self as NSError }
}
