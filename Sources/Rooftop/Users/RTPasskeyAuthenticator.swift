public import Foundation

/// Makes and uses passkeys for the SDK: the device part of ``RTUser/registerPasskey(named:password:authenticator:)``,
/// ``RTUser/logIn(withPasskey:username:)`` and ``RTUser/logIn(username:password:passkey:)``.
///
/// The SDK asks the server for the ceremony's options, hands them to the authenticator as an
/// ``RTPasskeyCreationRequest`` or an ``RTPasskeyAssertionRequest``, and sends what it answers
/// back to the server; the authenticator never talks to the server. On iOS 17 and macOS 14,
/// `RTPlatformPasskeyAuthenticator` uses the system's passkeys (iCloud Keychain or another
/// credential manager); a test, or an app with its own security-key support, brings its own.
///
/// An error an authenticator throws reaches the caller as an ``RTError``: an `RTError` as is,
/// any other error as code -1 (``RTErrorCode/otherCause``) with its description.
public protocol RTPasskeyAuthenticator: Sendable {
    /// Makes a new passkey for `request`'s relying party and user, signing its challenge
    /// (`navigator.credentials.create` on the web).
    func createCredential(_ request: RTPasskeyCreationRequest) async throws -> RTPasskeyCredentialRegistration
    /// Signs `request`'s challenge with one of this device's passkeys for the relying party
    /// (`navigator.credentials.get` on the web): one of ``RTPasskeyAssertionRequest/allowedCredentialIDs``
    /// when the list is not empty, any discoverable passkey when it is.
    func assertCredential(_ request: RTPasskeyAssertionRequest) async throws -> RTPasskeyCredentialAssertion
}

/// Whether the authenticator must check who is there (biometrics or the device passcode), as
/// the server asks; WebAuthn's `userVerification`.
public enum RTPasskeyUserVerification: String, Sendable, Equatable {
    /// The server refuses a passkey used without verifying the user.
    case required
    /// Verify the user when the authenticator can (WebAuthn's default).
    case preferred
    /// Skip verification when the authenticator can.
    case discouraged
}

/// What the server asks of a new passkey: WebAuthn's `PublicKeyCredentialCreationOptions`,
/// decoded.
public struct RTPasskeyCreationRequest: Sendable, Equatable {
    /// The bytes the new passkey signs, made by the server for this registration only.
    public var challenge: Data
    /// The relying party's id: the domain the passkey belongs to (e.g. `example.com`).
    public var relyingPartyID: String
    /// The relying party's name, for display.
    public var relyingPartyName: String
    /// The user handle the passkey keeps: an opaque id the server made, never an email address.
    public var userID: Data
    /// The account's name (its username), shown by the credential manager.
    public var userName: String
    /// The account's display name.
    public var userDisplayName: String
    /// The ids of passkeys this user already has: an authenticator holding one makes no other.
    public var excludedCredentialIDs: [Data]
    /// Whether the user must be verified.
    public var userVerification: RTPasskeyUserVerification
    /// How long the server waits for the answer; nil when it did not say.
    public var timeout: Duration?

    /// A request from its values (for tests and previews; the SDK decodes real ones from the server).
    public init(
        challenge: Data, relyingPartyID: String, relyingPartyName: String, userID: Data, userName: String, userDisplayName: String,
        excludedCredentialIDs: [Data] = [], userVerification: RTPasskeyUserVerification = .required, timeout: Duration? = nil
    ) {
        self.challenge = challenge
        self.relyingPartyID = relyingPartyID
        self.relyingPartyName = relyingPartyName
        self.userID = userID
        self.userName = userName
        self.userDisplayName = userDisplayName
        self.excludedCredentialIDs = excludedCredentialIDs
        self.userVerification = userVerification
        self.timeout = timeout
    }
}

/// What the server asks to sign in with a passkey: WebAuthn's `PublicKeyCredentialRequestOptions`,
/// decoded.
public struct RTPasskeyAssertionRequest: Sendable, Equatable {
    /// The bytes the passkey signs, made by the server for this sign-in only.
    public var challenge: Data
    /// The relying party's id: the domain the passkey belongs to.
    public var relyingPartyID: String
    /// The passkeys the server accepts; empty for a sign-in without a username, where any
    /// discoverable passkey of the relying party will do (the credential manager offers them).
    public var allowedCredentialIDs: [Data]
    /// Whether the user must be verified.
    public var userVerification: RTPasskeyUserVerification
    /// How long the server waits for the answer; nil when it did not say.
    public var timeout: Duration?

    /// A request from its values (for tests and previews; the SDK decodes real ones from the server).
    public init(
        challenge: Data, relyingPartyID: String, allowedCredentialIDs: [Data] = [], userVerification: RTPasskeyUserVerification = .required,
        timeout: Duration? = nil
    ) {
        self.challenge = challenge
        self.relyingPartyID = relyingPartyID
        self.allowedCredentialIDs = allowedCredentialIDs
        self.userVerification = userVerification
        self.timeout = timeout
    }
}

/// A new passkey, as the authenticator made it: the raw bytes of WebAuthn's
/// `AuthenticatorAttestationResponse`, which the SDK encodes for the server.
public struct RTPasskeyCredentialRegistration: Sendable, Equatable {
    /// The new passkey's id.
    public var credentialID: Data
    /// The client data the authenticator signed over (UTF-8 JSON with the challenge and origin).
    public var clientDataJSON: Data
    /// The CBOR attestation object: the public key and the authenticator's flags.
    public var attestationObject: Data
    /// How the passkey can be reached (WebAuthn's transports): `internal` for one on this
    /// device, `hybrid` for a phone, `usb`, `nfc`, `ble` for a security key.
    public var transports: [String]

    /// A registration from the authenticator's bytes.
    public init(credentialID: Data, clientDataJSON: Data, attestationObject: Data, transports: [String] = ["internal"]) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
        self.transports = transports
    }
}

/// A passkey's signature over a sign-in's challenge: the raw bytes of WebAuthn's
/// `AuthenticatorAssertionResponse`, which the SDK encodes for the server.
public struct RTPasskeyCredentialAssertion: Sendable, Equatable {
    /// The id of the passkey that signed.
    public var credentialID: Data
    /// The client data the authenticator signed over (UTF-8 JSON with the challenge and origin).
    public var clientDataJSON: Data
    /// The authenticator data: the relying party's hash, the flags and the signature counter.
    public var authenticatorData: Data
    /// The signature over the authenticator data and the client data's hash.
    public var signature: Data
    /// The user handle the passkey keeps (the ``RTPasskeyCreationRequest/userID`` it was made
    /// with); a sign-in without a username needs it to find the account.
    public var userHandle: Data?

    /// An assertion from the authenticator's bytes.
    public init(credentialID: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data, userHandle: Data?) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
    }
}
