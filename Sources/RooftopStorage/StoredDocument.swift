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

extension StoredDocument {
    /// Appends the object's wire form — the columns, then the document's members as stored — to
    /// `out` and answers true; answers false, writing nothing, when the document is not an object
    /// or has an internal (`_`-prefixed) member, which only decoding and rendering drops.
    ///
    /// Throws `StorageError.corrupt` for unreadable dates or permission lists.
    ///
    /// This runs once per object of every list, so it works on the text's bytes in place: the
    /// first version copied each document into an array and walked it through `ArraySlice`, and
    /// that walk alone was a tenth of a 100-object list's CPU (docs/benchmarks.md).
    package func writeWireObject(into out: inout [UInt8]) throws -> Bool {
        var text = document
        return try text.withUTF8 { text in
            guard let members = SplicedObject.members(of: text) else { return false }
            out.append(contentsOf: #"{"objectId":"#.utf8)
            JSONWriter.writeString(objectId, into: &out)
            out.append(contentsOf: #","createdAt":"#.utf8)
            try SplicedObject.writeDate(createdAt, into: &out)
            out.append(contentsOf: #","updatedAt":"#.utf8)
            try SplicedObject.writeDate(updatedAt, into: &out)
            try SplicedObject.writeACL(read: readers, write: writers, into: &out)
            if !members.isEmpty {
                out.append(UInt8(ascii: ","))
                out.append(contentsOf: UnsafeBufferPointer(rebasing: text[members]))
            }
            out.append(UInt8(ascii: "}"))
            return true
        }
    }
}

/// The byte-level pieces of `writeWireObject`.
enum SplicedObject {
    /// Where the members between an object's braces are (empty for `{}`), or nil when the text
    /// is not an object or a member's name starts with `_`.
    static func members(of text: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var start = 0
        var end = text.count
        while start < end, isSpace(text[start]) { start += 1 }
        while end > start, isSpace(text[end - 1]) { end -= 1 }
        guard end - start >= 2, text[start] == UInt8(ascii: "{"), text[end - 1] == UInt8(ascii: "}") else { return nil }
        guard topLevelKeysArePublic(text, from: start, to: end) else { return nil }
        var inner = start + 1
        while inner < end - 1, isSpace(text[inner]) { inner += 1 }
        return inner..<(end - 1)
    }

    /// Whether no member of the outermost object has a name starting with `_`; values (a
    /// pointer's `"className":"_User"`) may. Strings are skipped with their escapes.
    static func topLevelKeysArePublic(_ text: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
        var depth = 0
        var expectKey = false
        var index = start
        while index < end {
            let byte = text[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                if depth == 1, expectKey, index < end, text[index] == UInt8(ascii: "_") { return false }
                expectKey = false
                // Skip the string: to its closing quote, stepping over escaped characters.
                while index < end {
                    let inner = text[index]
                    if inner == UInt8(ascii: "\"") { break }
                    index += inner == UInt8(ascii: "\\") ? 2 : 1
                }
                index += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                expectKey = depth == 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
            case UInt8(ascii: ","):
                if depth == 1 { expectKey = true }
            default:
                break
            }
        }
        return true
    }

    /// A stored date as a JSON string: as stored when it already has the wire form
    /// (`YYYY-MM-DDTHH:MM:SS.mmmZ`, what both stores write), else parsed and rewritten.
    static func writeDate(_ text: String, into out: inout [UInt8]) throws {
        if isWireDate(text) {
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: text.utf8)
            out.append(UInt8(ascii: "\""))
            return
        }
        guard let date = ParseDate(iso: text) else { throw StorageError.corrupt("a stored row has unreadable dates") }
        JSONWriter.writeString(date.iso, into: &out)
    }

    static func isWireDate(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count == 24 else { return false }
            for (offset, byte) in bytes.enumerated() {
                let expected: UInt8? =
                    switch offset {
                    case 4, 7: UInt8(ascii: "-")
                    case 10: UInt8(ascii: "T")
                    case 13, 16: UInt8(ascii: ":")
                    case 19: UInt8(ascii: ".")
                    case 23: UInt8(ascii: "Z")
                    default: nil
                    }
                if let expected {
                    guard byte == expected else { return false }
                } else {
                    guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return false }
                }
            }
            return true
        }
    }

    /// `,"ACL":{…}` from the row's permission lists, entries in key order; nothing for a public
    /// object (both lists absent), as `DocumentCoding.acl` decodes them.
    static func writeACL(read: String?, write: String?, into out: inout [UInt8]) throws {
        if read == nil && write == nil { return }
        let readers = try entries(read)
        // Owner-only objects have the same text in both lists: parse it once.
        let writers = write == read ? readers : try entries(write)
        var keys = write == read ? readers : readers + writers
        keys.sort()  // equal neighbours are skipped below
        out.append(contentsOf: #","ACL":{"#.utf8)
        var previous: String?
        for key in keys where key != previous {
            if previous != nil { out.append(UInt8(ascii: ",")) }
            previous = key
            JSONWriter.writeString(key, into: &out)
            switch (readers.contains(key), writers.contains(key)) {
            case (true, true): out.append(contentsOf: #":{"read":true,"write":true}"#.utf8)
            case (true, false): out.append(contentsOf: #":{"read":true}"#.utf8)
            default: out.append(contentsOf: #":{"write":true}"#.utf8)
            }
        }
        out.append(UInt8(ascii: "}"))
    }

    private static func entries(_ text: String?) throws -> [String] {
        guard let text else { return [] }
        guard case .array(let items) = try JSONParser.parse(text) else { throw StorageError.corrupt("a permission list is not an array") }
        return items.compactMap(\.stringValue)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
