import Foundation
import HTTPTypes
import RooftopCore
import RooftopServices
import RooftopTesting
import Testing

/// Passkey challenges across the cluster: two nodes on one PostgreSQL; options issued by one are
/// completed on the other, and one answer sent to both at once signs in exactly once (a
/// registration the same way: stored once).
@Suite(.serialized) struct MultiNodePasskeyTests {
    static var accounts: AccountsConfiguration {
        var accounts = AccountsConfiguration()
        accounts.passkeys.relyingPartyId = "example.com"
        accounts.passkeys.origins = ["https://example.com"]
        return accounts
    }

    @Test func aChallengeIssuedOnOneNodeIsSpentOnceOnAny() async throws {
        let cluster = try await ClusterNodes.start(accounts: Self.accounts)
        do {
            let (status, user) = try await cluster.call(0, "POST", "/users", body: #"{"username":"ana","password":"correct horse battery"}"#)
            try #require(status == 201, "\(user)")
            let token = try #require(user["sessionToken"]?.stringValue)
            var passkey = SoftwarePasskey(rpId: "example.com", origin: "https://example.com")
            // Registration: options from node 0, the answer to both nodes at once — stored once.
            let (_, creation) = try await cluster.call(0, "POST", "/users/me/passkeys/registration/options", body: "{}", token: token)
            let registration = JSONWriter.string(["credential": try passkey.respond(toCreationOptions: creation)])
            async let registeredOn0 = cluster.call(0, "POST", "/users/me/passkeys", body: registration, token: token)
            async let registeredOn1 = cluster.call(1, "POST", "/users/me/passkeys", body: registration, token: token)
            let registrations: [(Int, JSON)] = try await [registeredOn0, registeredOn1]
            #expect(registrations.map { $0.0 }.sorted() == [201, 400], "\(registrations.map { $0.1 })")
            let (_, listed) = try await cluster.call(1, "GET", "/users/me/passkeys", token: token)
            #expect(listed["results"]?.arrayValue?.count == 1)

            for round in 0..<3 {
                // Issued on one node, completed on the other.
                let (_, options) = try await cluster.call(round % 2, "POST", "/passkeys/authentication/options", body: "{}")
                let answer = JSONWriter.string(["credential": try passkey.respond(toRequestOptions: options)])
                let (crossed, signedIn) = try await cluster.call(1 - round % 2, "POST", "/passkeys/authentication", body: answer)
                #expect(crossed == 200, "\(signedIn)")
                // The same answer replayed on both nodes at once: neither signs in again.
                async let replay0 = cluster.call(0, "POST", "/passkeys/authentication", body: answer)
                async let replay1 = cluster.call(1, "POST", "/passkeys/authentication", body: answer)
                let replays: [(Int, JSON)] = try await [replay0, replay1]
                #expect(replays.allSatisfy { $0.0 == 404 && $0.1["code"] == 101 }, "\(replays.map { $0.1 })")
            }
            // A fresh answer raced on both nodes: exactly one session.
            let (_, options) = try await cluster.call(0, "POST", "/passkeys/authentication/options", body: #"{"username":"ana"}"#)
            let answer = JSONWriter.string(["credential": try passkey.respond(toRequestOptions: options)])
            async let first = cluster.call(0, "POST", "/passkeys/authentication", body: answer)
            async let second = cluster.call(1, "POST", "/passkeys/authentication", body: answer)
            let raced: [(Int, JSON)] = try await [first, second]
            #expect(raced.map { $0.0 }.sorted() == [200, 404], "\(raced.map { $0.1 })")
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }
}
