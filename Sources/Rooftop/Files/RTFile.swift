public import Foundation
import RooftopCore

/// A file the server stores: a profile picture, a document, a recording (Parse's `ParseFile`).
///
/// Make one from bytes or from a file on disk, `save()` it (the upload reports its progress),
/// then store it in an object's field; the object keeps a reference (`name` and `url`), and
/// anyone with the `url` can download it. A file read from an object is already saved:
/// `getData()` downloads it.
///
/// ```swift
/// let picture = RTFile(name: "avatar.png", data: pngData, contentType: "image/png")
/// try await picture.save { fraction in print("uploaded \(Int(fraction * 100)) %") }
/// user["picture"] = picture
/// try await user.save()
/// ```
public final class RTFile: @unchecked Sendable {
    private let lock = NSLock()
    private var currentName: String
    private var currentURL: URL?
    private let bytes: Data?
    private let source: URL?
    /// The type sent with the upload; `nil` lets the server take it from the name's extension.
    public let contentType: String?

    /// A file of `data` named `name` (the server keeps the name readable after a random prefix).
    public init(name: String, data: Data, contentType: String? = nil) {
        self.currentName = name
        self.bytes = data
        self.source = nil
        self.contentType = contentType
    }

    /// A file read from `fileURL` when it is saved, a chunk at a time (a large video is never
    /// held in memory); named after the file unless `name` is given.
    public init(name: String? = nil, contentsOf fileURL: URL, contentType: String? = nil) {
        self.currentName = name ?? fileURL.lastPathComponent
        self.bytes = nil
        self.source = fileURL
        self.contentType = contentType
    }

    /// A file the server already stores (read from an object).
    init(savedName: String, url: URL?) {
        self.currentName = savedName
        self.currentURL = url
        self.bytes = nil
        self.source = nil
        self.contentType = nil
    }

    /// The name: the one given until the file is saved, then the server's unique one.
    public var name: String { lock.withLock { currentName } }

    /// Where the file is served; `nil` until it is saved.
    public var url: URL? { lock.withLock { currentURL } }

    /// Whether the file still has to be uploaded.
    public var isDirty: Bool { url == nil }

    /// The local bytes, or the local file, to upload.
    var upload: (data: Data?, file: URL?) { (bytes, source) }

    /// Records the server's name and URL after an upload.
    func saved(name: String, url: URL) {
        lock.withLock {
            currentName = name
            currentURL = url
        }
    }

    /// The reference an object stores: `{"__type":"File","name":…,"url":…}`.
    func json() throws(RTError) -> JSON {
        guard let url else {
            throw RTError(.otherCause, "The file \(name) must be saved before an object can refer to it.")
        }
        return ["__type": "File", "name": .string(name), "url": .string(url.absoluteString)]
    }
}
