package import RooftopCore

/// How documents and permission lists are stored as text.
package enum DocumentCoding {
    /// The canonical text of a value: compact, keys sorted, so equal values compare equal in SQL.
    package static func canonicalString(_ value: JSON) -> String { JSONWriter.string(value, sortedKeys: true) }

    /// The canonical text of a document.
    package static func encode(_ fields: [String: JSON]) -> String { canonicalString(.object(fields)) }

    /// Reads a stored document.
    package static func decode(_ text: String) throws -> [String: JSON] {
        guard case .object(let fields) = try JSONParser.parse(text, maxDepth: 256) else {
            throw StorageError.corrupt("a stored document is not an object")
        }
        return fields
    }

    /// The read and write lists of an ACL, as JSON arrays (nil for public).
    package static func permissions(_ acl: ACL?) -> (read: String?, write: String?) {
        guard let lists = permissionLists(acl) else { return (nil, nil) }
        return (canonicalString(.array(lists.read.map(JSON.string))), canonicalString(.array(lists.write.map(JSON.string))))
    }

    /// The read and write lists of an ACL, sorted so equal ACLs store equal lists (nil for
    /// public).
    package static func permissionLists(_ acl: ACL?) -> (read: [String], write: [String])? {
        guard let acl else { return nil }
        return (acl.readers.sorted(), acl.writers.sorted())
    }

    /// The ACL rebuilt from stored read and write lists.
    package static func acl(read: String?, write: String?) throws -> ACL? {
        if read == nil && write == nil { return nil }
        func list(_ text: String?) throws -> Set<String> {
            guard let text else { return [] }
            guard case .array(let items) = try JSONParser.parse(text) else { throw StorageError.corrupt("a permission list is not an array") }
            return Set(items.compactMap(\.stringValue))
        }
        return ACL(readers: try list(read), writers: try list(write))
    }
}
