import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopServices
import RooftopTesting
import Testing

/// Passkeys over the real routes: registration, management, usernameless and username-hint
/// sign-in, each algorithm, and what a session records.
@Suite struct PasskeyRoutesTests: PasskeyTesting {
    @Test(arguments: [SoftwarePasskey.Algorithm.es256, .eddsa, .rs256])
    func aPasskeyRegistersAndSignsInWithoutAUsername(_ algorithm: SoftwarePasskey.Algorithm) async throws {
        try await withServer(accounts: passkeyAccounts()) { (client: any TestClientProtocol) async throws in
            let ana = try await signUp(client, "ana")
            let options = try await call(client, .post, "/parse/users/me/passkeys/registration/options", body: "{}", headers: session(ana.token))
            // The options: this RP, an opaque user handle (never the name or an email), 32 random bytes.
            #expect(options.json["rp"]?["id"] == "example.com")
            #expect(options.json["user"]?["name"] == "ana")
            #expect(options.json["user"]?["id"]?.stringValue.flatMap(Base64URL.decode) == Array(ana.id.utf8))
            #expect(options.json["challenge"]?.stringValue.flatMap(Base64URL.decode)?.count == 32)
            #expect(options.json["authenticatorSelection"]?["userVerification"] == "required")
            #expect(options.json["attestation"] == "none")
            var passkey = authenticator(algorithm)
            let registered = try await register(client, ana.token, &passkey, name: "Ana's phone")
            #expect(registered.status == 201, "\(registered.json)")
            #expect(registered.json["id"]?.stringValue == Base64URL.encode(passkey.credentialId))
            #expect(registered.json["name"] == "Ana's phone" && registered.json["lastUsedAt"] == .null)
            #expect(registered.json["backupEligible"] == true && registered.json["backedUp"] == true)
            // No key, no counter, no internal field leaks through the user.
            let me = JSONWriter.string(try await call(client, .get, "/parse/users/me", headers: session(ana.token)).json)
            #expect(!me.contains("passkeys") && !me.contains(Base64URL.encode(passkey.credentialId)), "\(me)")

            let signedIn = try await signIn(client, try await assertion(client, &passkey))
            #expect(signedIn.status == 200, "\(signedIn.json)")
            #expect(signedIn.json["objectId"]?.stringValue == ana.id && signedIn.json["username"] == "ana")
            let token = try #require(signedIn.json["sessionToken"]?.stringValue)
            let current = try await call(client, .get, "/parse/sessions/me", headers: session(token))
            // The authenticator verified the user: two factors in one.
            #expect(current.json["createdWith"] == ["action": "login", "authProvider": "passkey", "secondFactor": "userVerified"], "\(current.json)")
            let listed = try await call(client, .get, "/parse/users/me/passkeys", headers: session(token))
            let only = try #require(listed.json["results"]?.arrayValue?.first)
            #expect(only["lastUsedAt"]?.stringValue != nil && only["name"] == "Ana's phone")
        }
    }

    @Test func aUsernameHintListsThatUsersPasskeysAndNobodyElses() async throws {
        try await withServer(accounts: passkeyAccounts()) { (client: any TestClientProtocol) async throws in
            let ana = try await signUp(client, "ana")
            var passkey = authenticator()
            #expect(try await register(client, ana.token, &passkey).status == 201)
            let options = try await call(client, .post, "/parse/passkeys/authentication/options", body: #"{"username":"ANA"}"#)
            #expect(options.json["rpId"] == "example.com" && options.json["userVerification"] == "required")
            let allowed = options.json["allowCredentials"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
            #expect(allowed == [Base64URL.encode(passkey.credentialId)])
            let signedIn = try await signIn(client, try passkey.respond(toRequestOptions: options.json))
            #expect(signedIn.status == 200 && signedIn.json["objectId"]?.stringValue == ana.id, "\(signedIn.json)")
            // An unknown name and a name without passkeys get stand-ins: one or two, the same each
            // time, different per name, shaped as stored ones (a real id's lengths, the same
            // transports in the same order as a passkey that reported them).
            _ = try await signUp(client, "bo")
            var decoys: [String: [JSON]] = [:]
            let names = ["bo", "nobody", "carol", "dave", "erin", "frank"]
            for name in names + names {
                let decoy = try await call(client, .post, "/parse/passkeys/authentication/options", body: #"{"username":"\#(name)"}"#)
                let list = try #require(decoy.json["allowCredentials"]?.arrayValue)
                #expect((1...2).contains(list.count))
                for item in list {
                    #expect([16, 20, 32].contains(item["id"]?.stringValue.flatMap(Base64URL.decode)?.count ?? 0))
                    #expect(item["type"] == "public-key" && item["transports"] == ["hybrid", "internal"])
                }
                if let earlier = decoys[name] { #expect(earlier == list) }
                decoys[name] = list
            }
            #expect(Set(decoys.values.map { JSONWriter.string(.array($0)) }).count == names.count)
        }
    }

    @Test func passkeysAreRenamedListedAndRemoved() async throws {
        try await withServer(accounts: passkeyAccounts()) { (client: any TestClientProtocol) async throws in
            let ana = try await signUp(client, "ana")
            var phone = authenticator()
            var laptop = authenticator(.eddsa)
            #expect(try await register(client, ana.token, &phone).json["name"] == "Passkey")
            #expect(try await register(client, ana.token, &laptop).json["name"] == "Passkey 2")
            let laptopId = Base64URL.encode(laptop.credentialId)
            let renamed = try await call(
                client, .put, "/parse/users/me/passkeys/\(laptopId)", body: #"{"name":"Laptop"}"#, headers: session(ana.token))
            #expect(renamed.status == 200 && renamed.json["name"] == "Laptop", "\(renamed.json)")
            let names = try await call(client, .get, "/parse/users/me/passkeys", headers: session(ana.token)).json["results"]?.arrayValue?
                .compactMap { $0["name"]?.stringValue }
            #expect(names == ["Passkey", "Laptop"])
            // Excluded from a new registration: the authenticator won't make a second one.
            let options = try await call(client, .post, "/parse/users/me/passkeys/registration/options", body: "{}", headers: session(ana.token))
            #expect(options.json["excludeCredentials"]?.arrayValue?.count == 2)
            #expect(try await call(client, .delete, "/parse/users/me/passkeys/\(laptopId)", headers: session(ana.token)).status == 200)
            // Gone: it no longer signs in, and it can't be removed twice.
            let refused = try await signIn(client, try await assertion(client, &laptop))
            #expect(refused.status == 404 && refused.json == ["code": 101, "error": "Invalid passkey."])
            let again = try await call(client, .delete, "/parse/users/me/passkeys/\(laptopId)", headers: session(ana.token))
            #expect(again.status == 404 && again.json["code"] == 101)
            // Another user can't touch ana's.
            let bo = try await signUp(client, "bo")
            let phoneId = Base64URL.encode(phone.credentialId)
            for (method, body) in [(HTTPRequest.Method.put, #"{"name":"Mine"}"#), (.delete, "")] {
                let theirs = try await call(client, method, "/parse/users/me/passkeys/\(phoneId)", body: body, headers: session(bo.token))
                #expect(theirs.status == 404 && theirs.json["code"] == 101)
            }
            #expect(try await signIn(client, try await assertion(client, &phone)).status == 200)
        }
    }

    @Test func theWellKnownFilesNameTheConfiguredApps() async throws {
        try await withServer(accounts: passkeyAccounts()) { (client: any TestClientProtocol) async throws in
            for path in ["/.well-known/apple-app-site-association", "/.well-known/assetlinks.json"] {
                #expect(try await call(client, .get, path).status == 404)
            }
        }
        var accounts = passkeyAccounts()
        accounts.passkeys.appleAppIds = ["ABCDE12345.com.example.app"]
        let fingerprint = (0..<32).map { String(format: "%02X", $0) }.joined(separator: ":")
        accounts.passkeys.androidApps = [PasskeySettings.AndroidApp(packageName: "com.example.app", fingerprints: [fingerprint])]
        try await withServer(accounts: accounts) { (client: any TestClientProtocol) async throws in
            let apple = try await call(client, .get, "/.well-known/apple-app-site-association")
            #expect(apple.status == 200 && apple.json == ["webcredentials": ["apps": ["ABCDE12345.com.example.app"]]])
            let android = try await call(client, .get, "/.well-known/assetlinks.json")
            #expect(
                android.json
                    == [
                        [
                            "relation": ["delegate_permission/common.get_login_creds"],
                            "target": [
                                "namespace": "android_app", "package_name": "com.example.app",
                                "sha256_cert_fingerprints": .array([.string(fingerprint)]),
                            ],
                        ]
                    ])
            // The app's origin is allowed: an Android passkey registers and signs in.
            let ana = try await signUp(client, "ana")
            var passkey = authenticator()
            passkey.origin = "android:apk-key-hash:" + Base64URL.encode(Array(0..<32))
            #expect(try await register(client, ana.token, &passkey).status == 201)
            #expect(try await signIn(client, try await assertion(client, &passkey)).status == 200)
        }
    }

    @Test func aCounterThatGoesBackIsFlaggedAndAudited() async throws {
        try await withServer(accounts: passkeyAccounts()) { (client: any TestClientProtocol) async throws in
            let ana = try await signUp(client, "ana")
            var passkey = authenticator()
            passkey.countsSignatures = true
            #expect(try await register(client, ana.token, &passkey).status == 201)
            #expect(try await signIn(client, try await assertion(client, &passkey)).status == 200)
            #expect(try await signIn(client, try await assertion(client, &passkey)).status == 200)
            // A clone that kept an older counter: still signs in (a synced passkey's counter can't
            // be trusted), but the passkey shows it and the audit log records it.
            passkey.signCount = 0
            let cloned = try await signIn(client, try await assertion(client, &passkey))
            #expect(cloned.status == 200)
            let listed = try await call(client, .get, "/parse/users/me/passkeys", headers: session(ana.token))
            #expect(listed.json["results"]?.arrayValue?.first?["counterWentBack"] == true, "\(listed.json)")
            let audit = try await call(client, .get, "/parse/classes/_Audit?where=%7B%22type%22:%22passkey.counter.regressed%22%7D", master: true)
            #expect(audit.json["results"]?.arrayValue?.count == 1, "\(audit.json)")
        }
    }
}
