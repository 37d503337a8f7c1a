#if canImport(AuthenticationServices) && !os(tvOS) && !os(watchOS)
    public import AuthenticationServices
    public import Foundation

    /// The system's passkeys on iOS, iPadOS, macOS and visionOS: `ASAuthorizationController`
    /// with `ASAuthorizationPlatformPublicKeyCredentialProvider` shows the system sheet, checks
    /// Face ID, Touch ID or the passcode, and keeps the passkey in the user's credential manager
    /// (iCloud Keychain or another).
    ///
    /// The app must be associated with the server's relying party: its `webcredentials:`
    /// associated domain (`webcredentials:example.com` in the Associated Domains entitlement)
    /// and the server's `apple-app-site-association` listing the app (`passkeyAppleAppIds`).
    ///
    /// ```swift
    /// let authenticator = RTPlatformPasskeyAuthenticator { view.window ?? ASPresentationAnchor() }
    /// try await RTUser.logIn(withPasskey: authenticator)
    /// ```
    ///
    /// A user who closes the sheet, or a device with no passkey for the server, fails with
    /// ``RTError/isPasskeyCancelled``.
    @available(iOS 17.0, macOS 14.0, macCatalyst 17.0, visionOS 1.0, *)
    public struct RTPlatformPasskeyAuthenticator: RTPasskeyAuthenticator {
        private let anchor: @MainActor @Sendable () -> ASPresentationAnchor

        /// An authenticator presenting its sheet over `anchor()`: the window the user is
        /// looking at (in SwiftUI, the key window of the scene; in UIKit, `view.window`).
        public init(anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) {
            self.anchor = anchor
        }

        /// Makes a passkey in the user's credential manager for `request`.
        public func createCredential(_ request: RTPasskeyCreationRequest) async throws -> RTPasskeyCredentialRegistration {
            guard case .registered(let registration) = try await authorize(.registration(request)) else {
                throw RTError(.otherCause, "The system answered a passkey registration with another kind of credential.")
            }
            return registration
        }

        /// Signs `request`'s challenge with a passkey the user picks in the system sheet.
        public func assertCredential(_ request: RTPasskeyAssertionRequest) async throws -> RTPasskeyCredentialAssertion {
            guard case .asserted(let assertion) = try await authorize(.assertion(request)) else {
                throw RTError(.otherCause, "The system answered a passkey sign-in with another kind of credential.")
            }
            return assertion
        }

        /// Runs one authorization on the main actor and waits for its delegate's answer.
        @MainActor
        private func authorize(_ ceremony: Ceremony) async throws -> Outcome {
            let bridge = AuthorizationBridge(anchor: anchor)
            let controller = ASAuthorizationController(authorizationRequests: [ceremony.authorizationRequest()])
            controller.delegate = bridge
            controller.presentationContextProvider = bridge
            let outcome = try await withCheckedThrowingContinuation { continuation in
                bridge.continuation = continuation
                controller.performRequests()
            }
            // The controller holds its delegate weakly: the bridge must outlive the request.
            withExtendedLifetime(bridge) {}
            return outcome
        }
    }

    /// What is asked of the system, in Sendable form until it reaches the main actor.
    private enum Ceremony: Sendable {
        case registration(RTPasskeyCreationRequest)
        case assertion(RTPasskeyAssertionRequest)

        @MainActor
        func authorizationRequest() -> ASAuthorizationRequest {
            switch self {
            case .registration(let request):
                let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: request.relyingPartyID)
                let registration = provider.createCredentialRegistrationRequest(
                    challenge: request.challenge, name: request.userName, userID: request.userID)
                registration.displayName = request.userDisplayName
                registration.userVerificationPreference = Self.preference(request.userVerification)
                #if !os(visionOS)
                    if #available(iOS 17.4, *) {
                        registration.excludedCredentials = request.excludedCredentialIDs.map {
                            ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
                        }
                    }
                #endif
                return registration
            case .assertion(let request):
                let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: request.relyingPartyID)
                let assertion = provider.createCredentialAssertionRequest(challenge: request.challenge)
                assertion.allowedCredentials = request.allowedCredentialIDs.map {
                    ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
                }
                assertion.userVerificationPreference = Self.preference(request.userVerification)
                return assertion
            }
        }

        private static func preference(_ verification: RTPasskeyUserVerification) -> ASAuthorizationPublicKeyCredentialUserVerificationPreference {
            switch verification {
            case .required: .required
            case .preferred: .preferred
            case .discouraged: .discouraged
            }
        }
    }

    /// The system's answer, copied out of the credential objects on the main actor.
    private enum Outcome: Sendable {
        case registered(RTPasskeyCredentialRegistration)
        case asserted(RTPasskeyCredentialAssertion)
    }

    /// The controller's delegate and presentation context, resuming the waiting call once.
    @MainActor
    private final class AuthorizationBridge: NSObject, ASAuthorizationControllerDelegate, ASAuthorizationControllerPresentationContextProviding {
        var continuation: CheckedContinuation<Outcome, any Error>?
        private let anchor: @MainActor @Sendable () -> ASPresentationAnchor

        init(anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) {
            self.anchor = anchor
        }

        func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization) {
            do {
                finish(.success(try Self.outcome(of: authorization.credential)))
            } catch {
                finish(.failure(error))
            }
        }

        func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
            if let error = error as? ASAuthorizationError, error.code == .canceled {
                finish(.failure(RTError(.otherCause, RTError.passkeyCancelledMessage)))
            } else {
                finish(.failure(RTError(.otherCause, "The passkey request failed: \(error.localizedDescription)")))
            }
        }

        func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor { anchor() }

        private func finish(_ result: Result<Outcome, any Error>) {
            continuation?.resume(with: result)
            continuation = nil
        }

        /// The raw bytes of the system's credential. Declared as optionals, since some of these
        /// properties are implicitly unwrapped in older SDKs.
        private static func outcome(of credential: any ASAuthorizationCredential) throws -> Outcome {
            if let registration = credential as? ASAuthorizationPlatformPublicKeyCredentialRegistration {
                let id: Data? = registration.credentialID
                let clientData: Data? = registration.rawClientDataJSON
                let attestation: Data? = registration.rawAttestationObject
                guard let id, let clientData, let attestation else {
                    throw RTError(.otherCause, "The system's new passkey came without its attestation.")
                }
                return .registered(RTPasskeyCredentialRegistration(credentialID: id, clientDataJSON: clientData, attestationObject: attestation))
            }
            if let assertion = credential as? ASAuthorizationPlatformPublicKeyCredentialAssertion {
                let id: Data? = assertion.credentialID
                let clientData: Data? = assertion.rawClientDataJSON
                let authenticatorData: Data? = assertion.rawAuthenticatorData
                let signature: Data? = assertion.signature
                let userHandle: Data? = assertion.userID
                guard let id, let clientData, let authenticatorData, let signature else {
                    throw RTError(.otherCause, "The system's passkey signature is incomplete.")
                }
                return .asserted(
                    RTPasskeyCredentialAssertion(
                        credentialID: id, clientDataJSON: clientData, authenticatorData: authenticatorData, signature: signature,
                        userHandle: userHandle.flatMap { $0.isEmpty ? nil : $0 }))
            }
            throw RTError(.otherCause, "The system answered with a credential that is not a passkey.")
        }
    }
#endif
