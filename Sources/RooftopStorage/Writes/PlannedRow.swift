package import RooftopCore

/// The row a create or update leaves, for the adapter to bind into its INSERT or UPDATE.
///
/// An update is planned from the row as read inside the write transaction (locked or guarded
/// there), so `Increment` and friends are atomic without any SQL of their own.
package struct PlannedRow: Sendable {
    /// The object as written: fields, ACL and timestamps.
    package var object: StoredObject
    /// The canonical text of `object.fields`, the `data` column.
    package var document: String
    /// The results of atomic operations, keyed as sent (empty for a create).
    package var echo: [String: JSON]

    /// A new object: the write's fields and ACL, created and updated `at`.
    package static func inserting(_ objectId: String, at: ParseDate, write: ObjectWrite) throws(ParseError) -> PlannedRow {
        var fields: [String: JSON] = [:]
        try DocumentUpdate.apply(write, to: &fields)
        let object = StoredObject(objectId: objectId, createdAt: at, updatedAt: at, acl: write.acl, fields: fields)
        return PlannedRow(object: object, document: DocumentCoding.encode(fields), echo: [:])
    }

    /// `stored` with the write's operations applied, updated `at`.
    ///
    /// An ACL in the body replaces the stored one; removing it makes the object public.
    package static func updating(_ stored: StoredObject, at: ParseDate, write: ObjectWrite) throws(ParseError) -> PlannedRow {
        var object = stored
        let echo = try DocumentUpdate.apply(write, to: &object.fields)
        if write.clearsACL { object.acl = nil }
        if let acl = write.acl { object.acl = acl }
        object.updatedAt = at
        return PlannedRow(object: object, document: DocumentCoding.encode(object.fields), echo: echo)
    }

    /// The `_rperm` and `_wperm` entries, sorted; nil for a public object.
    package var permissionLists: (read: [String], write: [String])? { DocumentCoding.permissionLists(object.acl) }

    /// The `_rperm` and `_wperm` lists as JSON array text; nil for a public object.
    package var permissionText: (read: String?, write: String?) { DocumentCoding.permissions(object.acl) }
}
