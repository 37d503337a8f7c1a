import Foundation
import Rooftop
import RooftopCore
import RooftopTesting

/// The SDK's authenticator protocol filled by RooftopTesting's software passkey: what the system
/// sheet does on a device, done in memory with a real key pair, so the server verifies real
/// attestations and signatures. It keeps the requests it was given for the tests to inspect.
actor SoftwarePasskeyAuthenticator: RTPasskeyAuthenticator {
    private(set) var passkey: SoftwarePasskey
    private(set) var creations: [RTPasskeyCreationRequest] = []
    private(set) var assertions: [RTPasskeyAssertionRequest] = []

    /// A new passkey for `server`'s default relying party (`localhost`) and origin.
    init(_ server: SDKServer, algorithm: SoftwarePasskey.Algorithm = .es256) {
        passkey = SoftwarePasskey(algorithm: algorithm, rpId: "localhost", origin: "http://localhost:\(server.port)")
    }

    /// The credential id as the server names it (``RTPasskey/id``).
    var id: String { Base64URL.encode(passkey.credentialId) }

    /// Changes the passkey's behaviour (origin, flags, counter) for the next ceremonies.
    func change(_ body: @Sendable (inout SoftwarePasskey) -> Void) { body(&passkey) }

    func createCredential(_ request: RTPasskeyCreationRequest) async throws -> RTPasskeyCredentialRegistration {
        creations.append(request)
        let made = passkey.register(challenge: Array(request.challenge), userHandle: Array(request.userID))
        return RTPasskeyCredentialRegistration(
            credentialID: Data(made.credentialId), clientDataJSON: Data(made.clientDataJSON), attestationObject: Data(made.attestationObject))
    }

    func assertCredential(_ request: RTPasskeyAssertionRequest) async throws -> RTPasskeyCredentialAssertion {
        assertions.append(request)
        let signed = try passkey.assert(challenge: Array(request.challenge), allowCredentials: request.allowedCredentialIDs.map { Array($0) })
        return RTPasskeyCredentialAssertion(
            credentialID: Data(signed.credentialId), clientDataJSON: Data(signed.clientDataJSON), authenticatorData: Data(signed.authenticatorData),
            signature: Data(signed.signature), userHandle: signed.userHandle.map { Data($0) })
    }
}

/// An authenticator that fails every ceremony with `error`, as a device whose user cancels or
/// whose credential manager breaks.
struct FailingPasskeyAuthenticator: RTPasskeyAuthenticator {
    let error: any Error

    func createCredential(_ request: RTPasskeyCreationRequest) async throws -> RTPasskeyCredentialRegistration { throw error }
    func assertCredential(_ request: RTPasskeyAssertionRequest) async throws -> RTPasskeyCredentialAssertion { throw error }
}

/// The credential manager's own failure, not an `RTError`.
struct CredentialManagerBroke: Error, CustomStringConvertible {
    var description: String { "the credential manager is locked" }
}
