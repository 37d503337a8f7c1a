/// The one error type that reaches a client: a Parse error code and a human message.
///
/// Internal causes (SQL text, file paths) never go into `message`; adapters translate their own
/// errors into a `ParseError` at the service boundary.
public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Parse's numeric error code. An open struct rather than an enum so custom codes fit.
    public struct Code: RawRepresentable, Hashable, Sendable {
        /// The numeric code sent on the wire.
        public let rawValue: Int
        /// Creates a code from its number.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Creates a code from its number.
        public init(_ rawValue: Int) { self.rawValue = rawValue }
    }

    /// The Parse error code.
    public let code: Code
    /// The message sent to the client.
    public let message: String

    /// Creates an error with a code and a client-safe message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// A readable form for logs.
    public var description: String { "ParseError(\(code.rawValue)): \(message)" }
}

extension ParseError.Code {
    /// -1: another cause.
    public static let otherCause = Self(-1)
    /// 1: an internal server error.
    public static let internalServerError = Self(1)
    /// 100: rate limit or connection failure.
    public static let connectionFailed = Self(100)
    /// 101: the object does not exist or the caller may not see it.
    public static let objectNotFound = Self(101)
    /// 102: a malformed or unsupported query.
    public static let invalidQuery = Self(102)
    /// 103: an invalid class name.
    public static let invalidClassName = Self(103)
    /// 104: a missing object id.
    public static let missingObjectId = Self(104)
    /// 105: an invalid field name.
    public static let invalidKeyName = Self(105)
    /// 106: a malformed pointer.
    public static let invalidPointer = Self(106)
    /// 107: malformed JSON or a malformed operation.
    public static let invalidJSON = Self(107)
    /// 108: an unsupported command or operator.
    public static let commandUnavailable = Self(108)
    /// 111: a value of the wrong type for the field.
    public static let incorrectType = Self(111)
    /// 112: an installation's channel name is not a valid name.
    public static let invalidChannelName = Self(112)
    /// 114: an installation's device token is not a valid token.
    public static let invalidDeviceToken = Self(114)
    /// 116: an object that is too large.
    public static let objectTooLarge = Self(116)
    /// 119: the operation is forbidden to this caller.
    public static let operationForbidden = Self(119)
    /// 121: a nested key containing `$` or `.`.
    public static let invalidNestedKey = Self(121)
    /// 122: a file name that is missing, too long or has characters a name may not have.
    package static let invalidFileName = Self(122)
    /// 130: a file could not be stored (refused by the upload rules, empty, or too large).
    package static let fileSaveError = Self(130)
    /// 153: a file could not be deleted (there is no such file).
    package static let fileDeleteError = Self(153)
    /// 124: a server-side handler took longer than its time limit.
    public static let timeout = Self(124)
    /// 141: a cloud function or trigger failed, or there is no such function.
    public static let scriptFailed = Self(141)
    /// 143: a webhook could not be registered, or failed.
    public static let webhookError = Self(143)
    /// 123: a malformed ACL.
    public static let invalidACL = Self(123)
    /// 125: an invalid email address.
    public static let invalidEmailAddress = Self(125)
    /// 132: an installation id is not a valid id.
    public static let invalidInstallationId = Self(132)
    /// 135: a required field is missing.
    public static let missingRequiredField = Self(135)
    /// 136: a field that cannot change after creation was changed.
    public static let immutableField = Self(136)
    /// 137: a duplicate value in a unique field.
    public static let duplicateValue = Self(137)
    /// 139: an invalid role name.
    public static let invalidRoleName = Self(139)
    /// 142: a validation failure.
    public static let validationError = Self(142)
    /// 155: a request limit was exceeded.
    public static let requestLimitExceeded = Self(155)
    /// 160: an analytics event name is not a valid name.
    public static let invalidEventName = Self(160)
    /// 162: a required value is empty (`userId` of `/loginAs`).
    public static let invalidValue = Self(162)
    /// 200: the username is missing.
    public static let usernameMissing = Self(200)
    /// 201: the password is missing.
    public static let passwordMissing = Self(201)
    /// 202: the username is taken.
    public static let usernameTaken = Self(202)
    /// 203: the email is taken.
    public static let emailTaken = Self(203)
    /// 204: the email is missing.
    public static let emailMissing = Self(204)
    /// 205: no user has this email, or the email is not verified yet.
    public static let emailNotFound = Self(205)
    /// 206: a user can only be changed by itself.
    public static let sessionMissing = Self(206)
    /// 208: this third-party identity is already linked to another user.
    public static let accountAlreadyLinked = Self(208)
    /// 209: the session token is invalid or expired.
    public static let invalidSessionToken = Self(209)
    /// 252: an unsupported authentication service.
    public static let unsupportedService = Self(252)
    /// 255: an invalid schema operation.
    public static let invalidSchemaOperation = Self(255)
}

extension ParseError {
    /// The standard "Object not found." error, also used for ACL denials.
    public static let objectNotFound = ParseError(.objectNotFound, "Object not found.")

    /// An internal error whose detail stays in the logs.
    public static let internalError = ParseError(.internalServerError, "Internal server error.")
}
