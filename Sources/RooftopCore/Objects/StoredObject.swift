/// One object as the store holds it: columns plus the document of other fields.
package struct StoredObject: Sendable, Equatable {
    /// The object's id.
    package var objectId: String
    /// When it was created.
    package var createdAt: ParseDate
    /// When it was last written.
    package var updatedAt: ParseDate
    /// Its ACL; nil means public read and write.
    package var acl: ACL?
    /// Every other field.
    package var fields: [String: JSON]

    /// Creates a stored object.
    package init(objectId: String, createdAt: ParseDate, updatedAt: ParseDate, acl: ACL?, fields: [String: JSON]) {
        self.objectId = objectId
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.acl = acl
        self.fields = fields
    }

    /// The wire form with `className`-less Parse fields (`objectId`, timestamps, `ACL`).
    ///
    /// Internal fields (`_hashed_password`, `_session_token`, …) are dropped here, the one place
    /// every read path goes through, so no route can return them.
    package var json: [String: JSON] {
        var out: [String: JSON] = [:]
        // Sized once: growing the dictionary field by field showed in the list profile.
        out.reserveCapacity(fields.count + 4)
        for (key, value) in fields where key.utf8.first != UInt8(ascii: "_") { out[key] = value }
        out["objectId"] = .string(objectId)
        out["createdAt"] = .string(createdAt.iso)
        out["updatedAt"] = .string(updatedAt.iso)
        if let acl { out["ACL"] = acl.json }
        return out
    }
}
