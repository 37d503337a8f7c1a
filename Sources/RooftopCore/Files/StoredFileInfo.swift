/// What a store knows about one file.
package struct StoredFileInfo: Sendable, Equatable {
    /// The stored name.
    package var name: String
    /// Bytes.
    package var size: Int64
    /// The type it is served as.
    package var contentType: String
    /// A strong validator, quoted (`"…"`): files never change, so one value per stored file.
    package var etag: String
    /// When it was stored.
    package var createdAt: ParseDate

    /// Describes a stored file.
    package init(name: String, size: Int64, contentType: String, etag: String, createdAt: ParseDate) {
        self.name = name
        self.size = size
        self.contentType = contentType
        self.etag = etag
        self.createdAt = createdAt
    }

    /// A new random entity tag.
    package static func newETag() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        return "\"" + String((0..<20).map { _ in digits[Int.random(in: 0..<16, using: &generator)] }) + "\""
    }
}
