import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import RooftopCore
import RooftopCrypto
import RooftopHTTP
import RooftopServer
import RooftopServices
import RooftopTesting
import Testing

/// `fileAccess: signed`: file URLs in answers are signed and expire, downloads without a valid
/// signature are 403, and a signed URL only reaches callers who can read an object that refers
/// to the file.
@Suite struct SignedFileTests: LiveServerTest {
    let files = FileRoutesTests()

    func signed(_ files: inout FilesConfiguration) {
        files.access = .signed
        files.signedURLLifetime = 3600
    }

    /// Signs up `name`: its session token and id.
    func user(_ client: any TestClientProtocol, _ name: String) async throws -> (token: String, id: String) {
        let reply = try await call(client, .post, "/parse/users", body: #"{"username":"\#(name)","password":"correct horse \#(name)"}"#)
        return (try #require(reply.json["sessionToken"]?.stringValue), try #require(reply.json["objectId"]?.stringValue))
    }

    /// Uploads a picture as `token`: its stored name and signed URL.
    func upload(_ client: any TestClientProtocol, _ name: String, token: String) async throws -> (name: String, url: String) {
        let reply = try await files.send(
            client, .post, "/parse/files/\(name)", body: pngBytes, headers: ["Content-Type": "image/png"], session: token)
        #expect(reply.status == 201)
        return (try #require(reply.json["name"]?.stringValue), try #require(reply.json["url"]?.stringValue))
    }

    /// The path and query of a URL, as the test client sends it.
    func target(_ url: String) throws -> String {
        let components = try #require(URLComponents(string: url))
        return components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }

    /// The upload answer's URL is signed for an hour; it downloads (GET and HEAD) until it
    /// expires and is refused afterwards; without a signature only the master key downloads;
    /// a refusal carries none of the file.
    @Test func signedURLsWorkUntilTheyExpire() async throws {
        let clock = TestClock()
        try await withServer(clock: clock, files: signed) { (client: any TestClientProtocol) async throws in
            let ana = try await user(client, "ana")
            let picture = try await upload(client, "avatar.png", token: ana.token)
            let query = try #require(URLComponents(string: picture.url)?.queryItems)
            let expires = clock.now().millisecondsSince1970 / 1000 + 3600
            #expect(query.first { $0.name == "expires" }?.value == String(expires))
            #expect(query.first { $0.name == "signature" }?.value?.wholeMatch(of: /[0-9a-f]{64}/) != nil)

            let served = try await files.send(client, .get, try target(picture.url))
            #expect(served.status == 200)
            #expect(served.body.elementsEqual(pngBytes))
            let head = try await files.send(client, .head, try target(picture.url))
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Length") == String(pngBytes.count))

            let bare = try files.path(picture.url)
            for method in [HTTPRequest.Method.get, .head] {
                let refused = try await files.send(client, method, bare)
                #expect(refused.status == 403, "\(method)")
                #expect(refused.body.count < 200, "the file's bytes must not follow a refusal")
                #expect(refused.header("Content-Type") != "image/png")
            }
            #expect(
                try await files.send(client, .get, bare).json == [
                    "code": 119, "error": "This file's URL is not signed, or its signature is wrong or has expired.",
                ])
            #expect(try await files.send(client, .get, bare, master: true).body.elementsEqual(pngBytes))

            clock.advance(by: .seconds(3599))
            #expect(try await files.send(client, .get, try target(picture.url)).status == 200)
            clock.advance(by: .seconds(1))
            let replayed = try await files.send(client, .get, try target(picture.url))
            #expect(replayed.status == 403)
            #expect(replayed.body.count < 200)
        }
    }

    /// An expiry edited, another file's signature, the signature in upper case, base64,
    /// percent-encoded or twice, an unsigned name under a valid query: all 403.
    @Test func tamperedSignaturesAreRefused() async throws {
        let clock = TestClock()
        try await withServer(clock: clock, files: signed) { (client: any TestClientProtocol) async throws in
            let ana = try await user(client, "ana")
            let first = try await upload(client, "a.png", token: ana.token)
            let second = try await upload(client, "b.png", token: ana.token)
            let path = try files.path(first.url)
            let items = try #require(URLComponents(string: first.url)?.queryItems)
            let expires = try #require(items.first { $0.name == "expires" }?.value)
            let signature = try #require(items.first { $0.name == "signature" }?.value)
            let otherQuery = try #require(URLComponents(string: second.url)?.percentEncodedQuery)
            let bytes = try #require(Data(hexString: signature))
            let percent = signature.utf8.map { String(format: "%%%02X", $0) }.joined()
            let hostile = [
                "expires=\(Int64(expires)! + 86_400)&signature=\(signature)",
                "expires=\(Int64(expires)! - 1)&signature=\(signature)",
                "expires=0\(expires)&signature=\(signature)",
                "expires=\(expires).0&signature=\(signature)",
                otherQuery,
                "expires=\(expires)&signature=\(signature.uppercased())",
                "expires=\(expires)&signature=\(bytes.base64EncodedString())",
                "expires=\(expires)&signature=\(percent)",
                "expires=\(expires)&signature=\(signature)&signature=\(signature)",
                "expires=\(expires)&signature=\(signature.dropLast())",
                "expires=\(expires)&signature=\(signature)00",
                "expires=\(expires)&signature=",
                "expires[$gt]=0&signature=\(signature)",
                "signature=\(signature)",
            ]
            for query in hostile {
                #expect(try await files.send(client, .get, path + "?" + query).status == 403, "\(query)")
            }
            #expect(try await files.send(client, .get, path + "?expires=\(expires)&signature=\(signature)").status == 200)
            // The same signature in the other file's URL.
            #expect(try await files.send(client, .get, try files.path(second.url) + "?expires=\(expires)&signature=\(signature)").status == 403)
        }
    }

    /// Every answer that renders an object signs its files: get, find, include, `/users/me`,
    /// login, batch, a function's result, an object a trigger filled and aggregate; another user who cannot read the object gets no
    /// signed URL of its file from any of them, and cannot get one by saving an object that
    /// names the file.
    @Test func signedURLsOnlyReachReaders() async throws {
        var cloud = CloudCode()
        cloud.define("latest") { request in
            // With the caller's rights: a function that reads as the master key hands out what it reads.
            let notes = try await request.caller.objects.find("Note", as: .caller)
            return notes.first.map { .object($0) } ?? .null
        }
        // A trigger's output: the object saved carries the note's file, copied server-side
        // with the caller's rights (a trigger that reads as the master key hands out what it reads).
        cloud.beforeSave("Copy") { request in
            if let scan = try await request.objects.find("Note", as: .caller).first?["scan"] { request.object["scan"] = scan }
        }
        let clock = TestClock()
        try await withServer(clock: clock, files: signed, cloud: cloud) { (client: any TestClientProtocol) async throws in
            let ana = try await user(client, "ana")
            let bob = try await user(client, "bob")
            let anaHeaders = ["X-Parse-Session-Token": ana.token]
            let bobHeaders = ["X-Parse-Session-Token": bob.token]
            let picture = try await upload(client, "private.png", token: ana.token)
            let file = #"{"__type":"File","name":"\#(picture.name)","url":"\#(picture.url)"}"#
            #expect(try await call(client, .put, "/parse/users/\(ana.id)", body: #"{"picture":\#(file)}"#, headers: anaHeaders).status == 200)
            let acl = #"{"\#(ana.id)":{"read":true,"write":true}}"#
            let note = try await call(client, .post, "/parse/classes/Note", body: #"{"scan":\#(file),"ACL":\#(acl)}"#, headers: anaHeaders)
            let noteId = try #require(note.json["objectId"]?.stringValue)
            let pointer = #"{"__type":"Pointer","className":"Note","objectId":"\#(noteId)"}"#
            let post = try await call(client, .post, "/parse/classes/Post", body: #"{"note":\#(pointer)}"#, headers: anaHeaders)
            let postId = try #require(post.json["objectId"]?.stringValue)

            // A Copy, which the trigger fills with the note the caller can read: its id.
            let copy = { (headers: [String: String]) async throws -> String in
                let created = try await call(client, .post, "/parse/classes/Copy", body: "{}", headers: headers)
                return try #require(created.json["objectId"]?.stringValue)
            }

            // Past the stored URLs' expiry: only a URL signed as the answer is written works.
            clock.advance(by: .seconds(7200))
            #expect(try await files.send(client, .get, try target(picture.url)).status == 403)

            // Ana, who can read them, gets working signed URLs everywhere.
            let login = try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"correct horse ana"}"#)
            let batch = #"{"requests":[{"method":"GET","path":"/parse/classes/Note/\#(noteId)"}]}"#
            let aggregate = try #require(#"[{"$project":{"scan":1}}]"#.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let anaAnswers: [JSON] = [
                try await call(client, .get, "/parse/classes/Note/\(noteId)", headers: anaHeaders).json["scan"] ?? .null,
                try await call(client, .get, "/parse/classes/Note", headers: anaHeaders).json["results"]?.arrayValue?.first?["scan"] ?? .null,
                try await call(client, .get, "/parse/classes/Post/\(postId)?include=note", headers: anaHeaders).json["note"]?["scan"] ?? .null,
                try await call(client, .get, "/parse/users/me", headers: anaHeaders).json["picture"] ?? .null,
                login.json["picture"] ?? .null,
                try await call(client, .post, "/parse/batch", body: batch, headers: anaHeaders).json.arrayValue?.first?["success"]?["scan"] ?? .null,
                try await call(client, .post, "/parse/functions/latest", body: "{}", headers: anaHeaders).json["result"]?["scan"] ?? .null,
                try await call(client, .get, "/parse/classes/Copy/\(try await copy(anaHeaders))", headers: anaHeaders).json["scan"] ?? .null,
                try await call(client, .get, "/parse/aggregate/Note?pipeline=\(aggregate)", master: true).json["results"]?.arrayValue?.first?["scan"]
                    ?? .null,
            ]
            for (index, answer) in anaAnswers.enumerated() {
                let url = try #require(answer["url"]?.stringValue, "answer \(index): \(answer)")
                #expect(url.contains("signature="), "answer \(index)")
                #expect(try await files.send(client, .get, try target(url)).status == 200, "answer \(index)")
            }

            // Bob cannot read the note: none of his answers carries a signature for its file.
            let bobAnswers = [
                try await call(client, .get, "/parse/classes/Note/\(noteId)", headers: bobHeaders),
                try await call(client, .get, "/parse/classes/Note", headers: bobHeaders),
                try await call(client, .get, "/parse/classes/Post/\(postId)?include=note", headers: bobHeaders),
                try await call(client, .post, "/parse/batch", body: batch, headers: bobHeaders),
                try await call(client, .get, "/parse/users/\(ana.id)", headers: bobHeaders),
                try await call(client, .post, "/parse/functions/latest", body: "{}", headers: bobHeaders),
                try await call(client, .get, "/parse/classes/Copy/\(try await copy(bobHeaders))", headers: bobHeaders),
            ]
            for (index, answer) in bobAnswers.enumerated() {
                #expect(!JSONWriter.string(answer.json).contains(picture.name), "answer \(index): \(answer.json)")
            }

            // Nor by naming the file in an object of his own: without a URL, with the bare
            // URL, with his own file's signature, in a batch or a function's parameters.
            let own = try await upload(client, "own.png", token: bob.token)
            let ownQuery = try #require(URLComponents(string: own.url)?.percentEncodedQuery)
            let bare = try files.path(picture.url)
            let forged = [
                #"{"__type":"File","name":"\#(picture.name)"}"#,
                #"{"__type":"File","name":"\#(picture.name)","url":"http://127.0.0.1\#(bare)"}"#,
                #"{"__type":"File","name":"\#(picture.name)","url":"http://127.0.0.1\#(bare)?\#(ownQuery)"}"#,
                #"{"__type":"File","name":"\#(picture.name)","url":{"$regex":"."}}"#,
            ]
            for value in forged {
                let saved = try await call(client, .post, "/parse/classes/Loot", body: #"{"f":[{"x":\#(value)}]}"#, headers: bobHeaders)
                #expect(saved.status == 400, "\(value)")
                let viaBatch = #"{"requests":[{"method":"POST","path":"/parse/classes/Loot","body":{"f":\#(value)}}]}"#
                #expect(
                    !JSONWriter.string(try await call(client, .post, "/parse/batch", body: viaBatch, headers: bobHeaders).json).contains("success"))
            }
            let loot = try await call(client, .get, "/parse/classes/Loot", master: true)
            #expect(loot.json["results"]?.arrayValue?.isEmpty ?? true)
            // His own file, with the URL he was handed, he may refer to.
            let mine = #"{"f":{"__type":"File","name":"\#(own.name)","url":"\#(own.url)"}}"#
            #expect(try await call(client, .post, "/parse/classes/Loot", body: mine, headers: bobHeaders).status == 201)
        }
    }

    /// Nodes that share the secret accept each other's signatures; another secret does not.
    @Test func nodesSharingTheSecretAcceptEachOthersSignatures() {
        let clock = TestClock()
        let one = FileURLSigning(key: DerivedMACKey(secret: "shared master key", purpose: .fileURLs), lifetime: 60, clock: clock)
        let two = FileURLSigning(key: DerivedMACKey(secret: "shared master key", purpose: .fileURLs), lifetime: 60, clock: clock)
        let other = FileURLSigning(key: DerivedMACKey(secret: "another key", purpose: .fileURLs), lifetime: 60, clock: clock)
        let query = one.query(for: "0123_a.png")
        #expect(two.isValid(query: query, for: "0123_a.png"))
        #expect(!two.isValid(query: query, for: "0123_b.png"))
        #expect(!other.isValid(query: query, for: "0123_a.png"))
    }
}

extension Data {
    /// The bytes of an even number of hexadecimal digits.
    init?(hexString: String) {
        var bytes: [UInt8] = []
        var index = hexString.startIndex
        while index < hexString.endIndex {
            let next = hexString.index(index, offsetBy: 2, limitedBy: hexString.endIndex) ?? hexString.endIndex
            guard let byte = UInt8(hexString[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(bytes)
    }
}
