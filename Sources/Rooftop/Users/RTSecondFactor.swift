public import Foundation
import RooftopCore

/// A second factor being added to a user: the secret for an authenticator app, not in force
/// until `confirmSecondFactor(code:)` is called with a code the app shows (within
/// 10 minutes).
///
/// Show ``uri`` as a QR code for the authenticator app to scan (on iOS, Core Image's
/// `CIQRCodeGenerator` with `Data(enrollment.uri.absoluteString.utf8)`), or open it to hand it
/// to an authenticator app on the same device; offer ``secret`` for typing by hand.
///
/// ```swift
/// let enrollment = try await user.enrollSecondFactor()
/// showQRCode(enrollment.uri.absoluteString)  // then ask for the code the app shows
/// let recoveryCodes = try await user.confirmSecondFactor(code: typedCode)
/// ```
public struct RTSecondFactorEnrollment: Sendable, Equatable {
    /// The secret in base32 (32 characters), for an authenticator app that cannot scan.
    public let secret: String
    /// The `otpauth://totp/…` URI with the secret, the issuer and the account (6 digits, 30 s,
    /// SHA-1): what the QR code holds.
    public let uri: URL

    /// An enrollment from its secret and URI (for tests and previews; the server makes real ones).
    public init(secret: String, uri: URL) {
        self.secret = secret
        self.uri = uri
    }

    init(_ answer: JSON) throws(RTError) {
        guard let secret = answer["secret"]?.stringValue, let text = answer["uri"]?.stringValue, let uri = URL(string: text),
            uri.scheme == "otpauth"
        else { throw RTError(.invalidJSON, "The server's answer to an enrollment has no secret and otpauth URI.") }
        self.init(secret: secret, uri: uri)
    }
}

/// Whether a user's second factor is in force, and how many of its recovery codes are unused.
public struct RTSecondFactorStatus: Sendable, Equatable {
    /// Whether logins need a code (a factor enrolled and confirmed).
    public let isEnabled: Bool
    /// Recovery codes not used yet (0 when no factor is enabled); regenerate them when few are left.
    public let recoveryCodesLeft: Int

    /// A status from its values (for tests and previews).
    public init(isEnabled: Bool, recoveryCodesLeft: Int) {
        self.isEnabled = isEnabled
        self.recoveryCodesLeft = recoveryCodesLeft
    }

    init(_ answer: JSON) throws(RTError) {
        guard let enabled = answer["enabled"]?.boolValue else {
            throw RTError(.invalidJSON, "The server's answer about the second factor has no \"enabled\".")
        }
        self.init(isEnabled: enabled, recoveryCodesLeft: enabled ? answer["recoveryCodesLeft"]?.intValue ?? 0 : 0)
    }
}

extension RTError {
    /// The server's message when a login lacks the code of a user with a second factor (Parse's).
    static let secondFactorRequiredMessage = "Missing additional authData mfa"
    /// The server's message for a wrong, reused or malformed code (Parse's).
    static let invalidSecondFactorCodeMessage = "Invalid MFA token"

    /// Whether a login failed only for want of the second-factor code: the password was right
    /// (no session was opened). Ask for the code the user's authenticator app shows, or one of
    /// their recovery codes, and log in again with ``RTUser/logIn(username:password:code:)``;
    /// or let the user answer with one of their passkeys through
    /// ``RTUser/logIn(username:password:passkey:)``.
    ///
    /// ```swift
    /// do {
    ///     try await RTUser.logIn(username: name, password: password)
    /// } catch let error as RTError where error.isSecondFactorRequired {
    ///     let code = try await askForCode()
    ///     try await RTUser.logIn(username: name, password: password, code: code)
    /// }
    /// ```
    ///
    /// On the wire: code -1 (``RTErrorCode/otherCause``) with Parse's message "Missing
    /// additional authData mfa"; this check is the one to rely on.
    public var isSecondFactorRequired: Bool { code == .otherCause && message == Self.secondFactorRequiredMessage }

    /// Whether a second-factor code was refused: wrong, already used (each code works once), or
    /// malformed — or too many wrong codes in a row, which refuses codes for 15 minutes. On the
    /// wire: code 141 with Parse's message "Invalid MFA token".
    public var isInvalidSecondFactorCode: Bool { code == .scriptFailed && message == Self.invalidSecondFactorCodeMessage }

    /// `error` as an `RTError`, when it is one: an `RTError` itself, or the `NSError` a
    /// completion handler got (domain `"Rooftop"`), so the checks above work there too.
    ///
    /// ```swift
    /// RTUser.logInWithUsernameInBackground(name, password: password) { user, error in
    ///     if let error, RTError(error)?.isSecondFactorRequired == true { askForCode() }
    /// }
    /// ```
    public init?(_ error: any Error) {
        if let error = error as? RTError {
            self = error
            return
        }
        let bridged = error as NSError
        guard bridged.domain == Self.errorDomain else { return nil }
        self.init(RTErrorCode(rawValue: bridged.code), bridged.userInfo["error"] as? String ?? bridged.localizedDescription)
    }
}
