import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopServices
import RooftopTesting
import Testing

/// Hostile passkey sign-ins and registrations: each refused, with nothing created.
@Suite struct PasskeyRefusalTests: PasskeyTesting {
    static let invalid: JSON = ["code": 101, "error": "Invalid passkey."]

    @Test func forgedAndReplayedSignInsAreRefusedAndOpenNoSession() async throws {
        let clock = TestClock()
        try await withServer(accounts: passkeyAccounts(), clock: clock) { (client: any TestClientProtocol) async throws in
            let ana = try await signUp(client, "ana")
            let bo = try await signUp(client, "bo")
            var passkey = authenticator()
            var bos = authenticator()
            #expect(try await register(client, ana.token, &passkey).status == 201)
            #expect(try await register(client, bo.token, &bos).status == 201)
            let before = try await sessionCount(client)

            // Replayed: the challenge is spent by the first use.
            let good = try await assertion(client, &passkey)
            #expect(try await signIn(client, good).status == 200)
            let replayed = try await signIn(client, good)
            #expect(replayed.status == 404 && replayed.json == Self.invalid)

            // Expired: five minutes and a second after the options.
            let late = try await assertion(client, &passkey)
            clock.advance(by: .seconds(301))
            #expect(try await signIn(client, late).json == Self.invalid)

            // Another site's page, another RP ID, no user verification.
            var elsewhere = passkey
            elsewhere.origin = "https://evil.example.net"
            #expect(try await signIn(client, try await assertion(client, &elsewhere)).json == Self.invalid)
            // (Signed for another RP ID by the same key: the authenticator data's hash is that ID's.)
            var otherParty = passkey
            otherParty.rpId = "evil.example.net"
            let otherOptions = try await call(client, .post, "/parse/passkeys/authentication/options", body: "{}")
            let challenge = try #require(otherOptions.json["challenge"]?.stringValue.flatMap(Base64URL.decode))
            let forged = SoftwarePasskey.assertionJSON(try otherParty.assert(challenge: challenge))
            #expect(try await signIn(client, forged).json == Self.invalid)
            var unverified = passkey
            unverified.userVerified = false
            #expect(try await signIn(client, try await assertion(client, &unverified)).json == Self.invalid)

            // A flipped signature bit; a signature made by bo's key for ana's credential.
            let signed = try await assertion(client, &passkey)
            var signature = try #require(signed["response"]?["signature"]?.stringValue.flatMap(Base64URL.decode))
            signature[signature.count - 1] ^= 1
            #expect(try await signIn(client, replacing(signed, "signature", with: .string(Base64URL.encode(signature)))).json == Self.invalid)

            // bo's credential presented with ana's user handle (and the reverse).
            let bosAnswer = try await assertion(client, &bos)
            let swapped = replacing(bosAnswer, "userHandle", with: .string(Base64URL.encode(Array(ana.id.utf8))))
            #expect(try await signIn(client, swapped).json == Self.invalid)
            // ana's own credential, options issued for bo's username.
            let bosOptions = try await call(client, .post, "/parse/passkeys/authentication/options", body: #"{"username":"bo"}"#)
            var anyCredential = passkey
            let forBo = try anyCredential.respond(toRequestOptions: ["challenge": bosOptions.json["challenge"] ?? .null, "rpId": "example.com"])
            #expect(try await signIn(client, forBo).json == Self.invalid)

            #expect(try await sessionCount(client) == before + 1)
            let failures = try await call(client, .get, "/parse/classes/_Audit?where=%7B%22type%22:%22login.failed%22%7D", master: true)
            #expect((failures.json["results"]?.arrayValue?.count ?? 0) >= 7, "\(failures.json)")
        }
    }

    @Test func malformedCredentialsGetAClearErrorBeforeAnyCheck() async throws {
        try await withServer(accounts: passkeyAccounts()) { (client: any TestClientProtocol) async throws in
            let ana = try await signUp(client, "ana")
            var passkey = authenticator()
            #expect(try await register(client, ana.token, &passkey).status == 201)
            let good = try await assertion(client, &passkey)
            let huge = String(repeating: "A", count: 200_000)
            var deep = "1"
            for _ in 0..<200 { deep = "[\(deep)]" }
            let bodies = [
                #"{}"#, #"{"credential":"x"}"#, #"{"credential":{"$ne":null}}"#,
                JSONWriter.string(["credential": replacing(good, "clientDataJSON", with: ["$gt": ""])]),
                JSONWriter.string(["credential": replacing(good, "signature", with: "bad=padding=")]),
                JSONWriter.string(["credential": replacing(good, "authenticatorData", with: .string(huge))]),
                JSONWriter.string(["credential": replacing(good, "clientDataJSON", with: "a\u{0}b")]),
                #"{"credential":\#(deep)}"#,
            ]
            for body in bodies {
                let reply = try await call(client, .post, "/parse/passkeys/authentication", body: body)
                #expect(
                    reply.status == 400 && [107, 101].contains(reply.json["code"]?.numberValue.map(Int.init) ?? 0),
                    "\(body.prefix(80)): \(reply.json)")
            }
            // Truncated and oversized CBOR in a registration: refused, nothing stored.
            for mangle in [{ (bytes: [UInt8]) in Array(bytes.prefix(bytes.count / 2)) }, { $0 + [UInt8](repeating: 0, count: 70_000) }] {
                let options = try await call(client, .post, "/parse/users/me/passkeys/registration/options", body: "{}", headers: session(ana.token))
                var fresh = authenticator()
                let answer = try fresh.respond(toCreationOptions: options.json)
                let attestation = try #require(answer["response"]?["attestationObject"]?.stringValue.flatMap(Base64URL.decode))
                let broken = replacing(answer, "attestationObject", with: .string(Base64URL.encode(mangle(attestation))))
                let reply = try await call(
                    client, .post, "/parse/users/me/passkeys", body: JSONWriter.string(["credential": broken]), headers: session(ana.token))
                #expect(reply.status == 400, "\(reply.json)")
            }
            let listed = try await call(client, .get, "/parse/users/me/passkeys", headers: session(ana.token))
            #expect(listed.json["results"]?.arrayValue?.count == 1)
        }
    }

    @Test func registrationNeedsARecentSignInAndARealAccount() async throws {
        let clock = TestClock()
        try await withServer(accounts: passkeyAccounts(maxPerUser: 2), clock: clock) { (client: any TestClientProtocol) async throws in
            let ana = try await signUp(client, "ana")
            // Anonymous users can't; the master key has no user here.
            let anonymous = try await call(
                client, .post, "/parse/users", body: #"{"authData":{"anonymous":{"id":"0f8b7f1c-3a1d-4c9e-9d2f-2b7e8c4a6d11"}}}"#)
            let anonymousToken = try #require(anonymous.json["sessionToken"]?.stringValue)
            let refused = try await call(client, .post, "/parse/users/me/passkeys/registration/options", body: "{}", headers: session(anonymousToken))
            #expect(refused.status == 400 && refused.json["code"] == 119, "\(refused.json)")
            let master = try await call(client, .post, "/parse/users/me/passkeys/registration/options", body: "{}", master: true)
            #expect(master.json["code"] == 209)
            // A sign-in more than 15 minutes old needs the password (a wrong one is 101).
            clock.advance(by: .seconds(16 * 60))
            let stale = try await call(client, .post, "/parse/users/me/passkeys/registration/options", body: "{}", headers: session(ana.token))
            #expect(stale.json["code"] == 119, "\(stale.json)")
            // A fresh session minted from the old one (POST /sessions) is no sign-in.
            let minted = try await call(client, .post, "/parse/sessions", body: "{}", headers: session(ana.token))
            let mintedToken = try #require(minted.json["sessionToken"]?.stringValue, "\(minted.json)")
            let fromMinted = try await call(
                client, .post, "/parse/users/me/passkeys/registration/options", body: "{}", headers: session(mintedToken))
            #expect(fromMinted.json["code"] == 119, "\(fromMinted.json)")
            let wrong = try await call(
                client, .post, "/parse/users/me/passkeys/registration/options", body: #"{"password":"not it"}"#, headers: session(ana.token))
            #expect(wrong.json["code"] == 101)
            let operatorPassword = try await call(
                client, .post, "/parse/users/me/passkeys/registration/options", body: #"{"password":{"$ne":1}}"#, headers: session(ana.token))
            #expect(operatorPassword.json["code"] == 101)
            // Wrong passwords here are wrong logins: audited (and counted by a lockout).
            let failures = try await call(client, .get, "/parse/classes/_Audit?where=%7B%22type%22:%22login.failed%22%7D", master: true)
            #expect(failures.json["results"]?.arrayValue?.count == 2, "\(failures.json)")
            let withPassword = try await call(
                client, .post, "/parse/users/me/passkeys/registration/options", body: #"{\#(Self.password)}"#, headers: session(ana.token))
            #expect(withPassword.status == 200)
            // A challenge issued to ana registers nothing for bo.
            let bo = try await signUp(client, "bo")
            var stolen = authenticator()
            let answer = try stolen.respond(toCreationOptions: withPassword.json)
            let crossed = try await call(
                client, .post, "/parse/users/me/passkeys", body: JSONWriter.string(["credential": answer]), headers: session(bo.token))
            #expect(crossed.json["code"] == 142, "\(crossed.json)")
            // At most maxPerUser; the same credential twice is refused.
            var first = authenticator()
            var second = authenticator()
            #expect(try await register(client, bo.token, &first).status == 201)
            let options = try await call(client, .post, "/parse/users/me/passkeys/registration/options", body: "{}", headers: session(bo.token))
            // (The same credential registered again, as an authenticator that ignores the exclude list would.)
            var twice = first
            let challenge = try #require(options.json["challenge"]?.stringValue.flatMap(Base64URL.decode))
            let again = SoftwarePasskey.registrationJSON(twice.register(challenge: challenge, userHandle: Array(bo.id.utf8)))
            let duplicate = try await call(
                client, .post, "/parse/users/me/passkeys", body: JSONWriter.string(["credential": again]), headers: session(bo.token))
            #expect(duplicate.json["code"] == 142, "\(duplicate.json)")
            #expect(try await register(client, bo.token, &second).status == 201)
            let full = try await call(client, .post, "/parse/users/me/passkeys/registration/options", body: "{}", headers: session(bo.token))
            #expect(full.json["code"] == 119, "\(full.json)")
            // Names: a string of 1–64 characters without control characters.
            for name in [#"{"$gt":""}"#, #""""#, #""a\u0000b""#, "\"\(String(repeating: "x", count: 65))\""] {
                let renamed = try await call(
                    client, .put, "/parse/users/me/passkeys/\(Base64URL.encode(first.credentialId))", body: #"{"name":\#(name)}"#,
                    headers: session(bo.token))
                #expect(renamed.json["code"] == 162, "\(name): \(renamed.json)")
            }
        }
    }

    @Test func aChallengeServesOnlyTheCeremonyItWasIssuedFor() async throws {
        try await withServer(accounts: passkeyAccounts()) { (client: any TestClientProtocol) async throws in
            let ana = try await signUp(client, "ana")
            var passkey = authenticator()
            #expect(try await register(client, ana.token, &passkey).status == 201)
            // A registration's challenge doesn't sign in; a sign-in's doesn't register.
            let creation = try await call(client, .post, "/parse/users/me/passkeys/registration/options", body: "{}", headers: session(ana.token))
            let creationChallenge = try #require(creation.json["challenge"]?.stringValue.flatMap(Base64URL.decode))
            let signedWithIt = SoftwarePasskey.assertionJSON(try passkey.assert(challenge: creationChallenge))
            #expect(try await signIn(client, signedWithIt).json == Self.invalid)
            let request = try await call(client, .post, "/parse/passkeys/authentication/options", body: "{}")
            let requestChallenge = try #require(request.json["challenge"]?.stringValue.flatMap(Base64URL.decode))
            var fresh = authenticator()
            let registeredWithIt = SoftwarePasskey.registrationJSON(fresh.register(challenge: requestChallenge, userHandle: Array(ana.id.utf8)))
            let refused = try await call(
                client, .post, "/parse/users/me/passkeys", body: JSONWriter.string(["credential": registeredWithIt]), headers: session(ana.token))
            #expect(refused.json["code"] == 142, "\(refused.json)")
            // A username that isn't a string, has a NUL, or is huge: a clear error, nothing issued.
            for body in [#"{"username":{"$ne":null}}"#, #"{"username":"ana\u0000"}"#, "{\"username\":\"\(String(repeating: "a", count: 2000))\"}"] {
                let reply = try await call(client, .post, "/parse/passkeys/authentication/options", body: body)
                #expect(reply.status == 400 && reply.json["challenge"] == nil, "\(reply.json)")
            }
        }
    }

    @Test func withoutAnRPIDThePasskeyRoutesAreOff() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let ana = try await signUp(client, "ana")
            let off = try await call(client, .post, "/parse/users/me/passkeys/registration/options", body: "{}", headers: session(ana.token))
            #expect(off.json["code"] == 252)
            #expect(try await call(client, .post, "/parse/passkeys/authentication/options", body: "{}").json["code"] == 252)
        }
    }

    @Test func thePasskeyIsNotRemovedWhenItIsTheOnlyWayIn() throws {
        func user(_ fields: [String: JSON]) -> StoredObject {
            StoredObject(
                objectId: "u1", createdAt: ParseDate(millisecondsSince1970: 0), updatedAt: ParseDate(millisecondsSince1970: 0), acl: nil,
                fields: fields)
        }
        #expect(PasskeyManagement.hasOtherWayIn(user([InternalField.hashedPassword.rawValue: "$2b$..."])))
        #expect(PasskeyManagement.hasOtherWayIn(user([FieldName.authIdPrefix + "github": "1"])))
        #expect(!PasskeyManagement.hasOtherWayIn(user([FieldName.authIdPrefix + "anonymous": "x"])))
        #expect(!PasskeyManagement.hasOtherWayIn(user([:])))
    }
}
