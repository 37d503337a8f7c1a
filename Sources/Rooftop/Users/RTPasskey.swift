public import Foundation
import RooftopCore

/// One of a user's passkeys, as the server keeps it: the public key's id, a label, and when it
/// was made and last used. The private key never leaves the authenticator (for a synced passkey,
/// the user's credential manager); the server has only the public key.
///
/// ```swift
/// for passkey in try await user.passkeys() {
///     print(passkey.name, passkey.lastUsedAt ?? passkey.createdAt, passkey.backedUp ? "synced" : "this device only")
/// }
/// ```
public struct RTPasskey: Sendable, Equatable, Identifiable {
    /// The credential id (base64url): what ``RTUser/renamePasskey(_:to:)`` and
    /// ``RTUser/deletePasskey(_:)`` take.
    public let id: String
    /// The label the user gave it, or the server's default.
    public let name: String
    /// When it was registered.
    public let createdAt: Date
    /// When it last signed the user in; nil when it never has.
    public let lastUsedAt: Date?
    /// Whether it may be synced to the user's other devices (a multi-device passkey).
    public let backupEligible: Bool
    /// Whether it was synced when last seen, so losing this device does not lose it.
    public let backedUp: Bool

    /// A passkey from its values (for tests and previews; the server makes real ones).
    public init(id: String, name: String, createdAt: Date, lastUsedAt: Date? = nil, backupEligible: Bool = false, backedUp: Bool = false) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.backupEligible = backupEligible
        self.backedUp = backedUp
    }

    init(_ answer: JSON) throws(RTError) {
        guard let id = answer["id"]?.stringValue, let created = answer["createdAt"]?.stringValue.flatMap(ParseDate.init(iso:)) else {
            throw RTError(.invalidJSON, "The server's answer has no passkey id and creation date.")
        }
        self.init(
            id: id, name: answer["name"]?.stringValue ?? "", createdAt: created.date,
            lastUsedAt: answer["lastUsedAt"]?.stringValue.flatMap(ParseDate.init(iso:))?.date,
            backupEligible: answer["backupEligible"]?.boolValue ?? false, backedUp: answer["backedUp"]?.boolValue ?? false)
    }
}

extension RTError {
    /// The server's message when it refuses a passkey sign-in.
    static let invalidPasskeyMessage = "Invalid passkey."
    /// The message of the error `RTPlatformPasskeyAuthenticator` throws when the user closes the sheet.
    static let passkeyCancelledMessage = "The passkey request was cancelled."

    /// Whether the server refused a passkey sign-in: a passkey it does not know (never
    /// registered, or deleted), a challenge that was used or expired, another origin or
    /// relying party, a bad signature, or a user who was not verified. No session was opened;
    /// the server does not say which, so offer the password or another passkey.
    ///
    /// On the wire: code 101 (``RTErrorCode/objectNotFound``) with the message "Invalid
    /// passkey.". A passkey refused as a second factor is ``isInvalidSecondFactorCode`` instead,
    /// as a wrong code is.
    public var isInvalidPasskey: Bool { code == .objectNotFound && message == Self.invalidPasskeyMessage }

    /// Whether the user dismissed the system's passkey sheet (or no passkey of this app was
    /// on the device): nothing to report, let the user choose another way.
    public var isPasskeyCancelled: Bool { code == .otherCause && message == Self.passkeyCancelledMessage }

    /// A failure of an `RTPasskeyAuthenticator` as the SDK reports it: an `RTError` unchanged,
    /// anything else as -1 with its description.
    static func passkeyAuthenticator(_ error: any Error) -> RTError {
        if let error = error as? RTError { return error }
        if error is CancellationError { return RTError(.otherCause, passkeyCancelledMessage) }
        return RTError(.otherCause, "The passkey authenticator failed: \(error)")
    }
}
