import Foundation
import Rooftop
import RooftopCore
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `RTFile` against a real server: a user's profile picture, from bytes and from a file.
extension SDKTests {
    @Suite struct FileTests {
        static let picture = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })

        /// A profile picture: uploaded with progress, stored on the user, read back through a
        /// query as an `RTFile` whose bytes download, and served with its type.
        @Test func profilePicture() async throws {
            try await withSDK { server, _ in
                let user = RTUser()
                user.username = "ana"
                user.password = "correct horse"
                try await user.signUp()

                let picture = RTFile(name: "avatar.png", data: Self.picture, contentType: "image/png")
                #expect(picture.isDirty && picture.url == nil)
                let fractions = LockedFractions()
                try await picture.save { fractions.append($0) }
                #expect(!picture.isDirty)
                #expect(picture.name.hasSuffix("_avatar.png") && picture.name.count == 32 + 1 + "avatar.png".count)
                let url = try #require(picture.url)
                #expect(url.absoluteString == "\(server.url)/files/\(sdkAppId)/\(picture.name)")
                #expect(fractions.values.last == 1)
                #expect(fractions.values == fractions.values.sorted())

                user["picture"] = picture
                try await user.save()
                let (_, stored) = try await server.rest("GET", "/users/\(user.objectId ?? "")", master: true)
                #expect(stored["picture"] == ["__type": "File", "name": .string(picture.name), "url": .string(url.absoluteString)])

                let found = try await RTUser.query().getObject(withId: user.objectId ?? "")
                let file = try #require(found["picture"] as? RTFile)
                #expect(file.name == picture.name && file.url == url && !file.isDirty)
                #expect(try await file.getData() == Self.picture)

                let (data, response) = try await URLSession.shared.data(from: url)
                let http = try #require(response as? HTTPURLResponse)
                #expect(data == Self.picture)
                #expect(http.value(forHTTPHeaderField: "Content-Type") == "image/png")
                #expect(http.value(forHTTPHeaderField: "X-Content-Type-Options") == "nosniff")
            }
        }

        /// A file on disk, saved with the object that refers to it (the upload comes first), and
        /// the completion-handler forms.
        @Test func fileFromDiskIsSavedWithItsObject() async throws {
            try await withSDK { server, storage in
                let user = RTUser()
                user.username = "bo"
                user.password = "correct horse"
                try await user.signUp()
                try FileManager.default.createDirectory(at: storage, withIntermediateDirectories: true)
                let path = storage.appendingPathComponent("notes.txt")
                try Data("field notes".utf8).write(to: path)
                let notes = RTFile(contentsOf: path)
                #expect(notes.name == "notes.txt")
                let entry = RTObject(className: "Journal")
                entry["attachment"] = notes
                try await entry.save()
                #expect(!notes.isDirty)
                let (_, stored) = try await server.rest("GET", "/classes/Journal/\(entry.objectId ?? "")", master: true)
                #expect(stored["attachment"]?["name"]?.stringValue == notes.name)

                let loaded: Data? = await callback { done in notes.getDataInBackground { data, _ in done(data) } }
                #expect(loaded == Data("field notes".utf8))
                let again = RTFile(name: "again.txt", data: Data("x".utf8))
                let saved: Bool = await callback { done in again.saveInBackground { success, _ in done(success) } }
                #expect(saved && again.url != nil)
            }
        }

        /// A refused upload is the server's Parse error; the file stays unsaved.
        @Test func refusedUploadKeepsTheFileUnsaved() async throws {
            try await withSDK { _, _ in
                let page = RTFile(name: "page.html", data: Data("<script>alert(1)</script>".utf8), contentType: "text/html")
                await #expect {
                    try await page.save()
                } throws: { error in
                    (error as? RTError)?.code.rawValue == 130
                }
                #expect(page.isDirty && page.url == nil)
            }
        }
    }
}

/// Progress fractions, from whichever thread reports them.
final class LockedFractions: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Double] = []
    func append(_ value: Double) { lock.withLock { stored.append(value) } }
    var values: [Double] { lock.withLock { stored } }
}
