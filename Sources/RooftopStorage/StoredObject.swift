public import RooftopCore

/// One object as the store holds it: columns plus the document of other fields.
public struct StoredObject: Sendable, Equatable {
    /// The object's id.
    public var objectId: String
    /// When it was created.
    public var createdAt: ParseDate
    /// When it was last written.
    public var updatedAt: ParseDate
    /// Its ACL; nil means public read and write.
    public var acl: ACL?
    /// Every other field.
    public var fields: [String: JSON]

    /// Creates a stored object.
    public init(objectId: String, createdAt: ParseDate, updatedAt: ParseDate, acl: ACL?, fields: [String: JSON]) {
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
    public var json: [String: JSON] {
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
