package import RooftopCore

/// One object as its row holds it: the columns as text, the document not yet parsed.
///
/// Parsing a document into `JSON` and writing it back out was half the CPU of listing objects
/// (docs/benchmarks.md); an answer that needs no rewriting is spliced from this text instead.
package struct StoredDocument: Sendable, Equatable {
    /// The object's id.
    package var objectId: String
    /// When it was created, as stored (ISO 8601).
    package var createdAt: String
    /// When it was last written, as stored (ISO 8601).
    package var updatedAt: String
    /// The read list, a JSON array of ACL entries; nil for public.
    package var readers: String?
    /// The write list, a JSON array of ACL entries; nil for public.
    package var writers: String?
    /// Every other field, as one JSON object.
    package var document: String

    /// Creates a stored document.
    package init(objectId: String, createdAt: String, updatedAt: String, readers: String?, writers: String?, document: String) {
        self.objectId = objectId
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.readers = readers
        self.writers = writers
        self.document = document
    }

    /// The text form of a decoded object.
    package init(_ object: StoredObject) {
        let (readers, writers) = DocumentCoding.permissions(object.acl)
        self.init(
            objectId: object.objectId, createdAt: object.createdAt.iso, updatedAt: object.updatedAt.iso, readers: readers, writers: writers,
            document: DocumentCoding.encode(object.fields))
    }

    /// The decoded object.
    package func decoded() throws -> StoredObject {
        guard let created = ParseDate(iso: createdAt), let updated = ParseDate(iso: updatedAt) else {
            throw StorageError.corrupt("a stored row has unreadable dates")
        }
        return StoredObject(
            objectId: objectId, createdAt: created, updatedAt: updated, acl: try DocumentCoding.acl(read: readers, write: writers),
            fields: try DocumentCoding.decode(document))
    }
}
