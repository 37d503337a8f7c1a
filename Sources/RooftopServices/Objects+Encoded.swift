public import RooftopCore
import RooftopStorage

extension Objects {
    /// `GET /classes/:className`'s body, written straight from the stored text when nothing in
    /// the answer needs rewriting; otherwise `find`'s answer, encoded.
    ///
    /// Listing 50 objects spent half its CPU parsing stored documents into `JSON` and writing
    /// them back out unchanged (docs/benchmarks.md, profile of `list`).
    public func findBody(_ className: ClassName, params: [String: JSON], principal: Principal) async throws -> [UInt8] {
        let prepared = try await prepareFind(className, params: params, principal: principal)
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        out.append(contentsOf: #"{"results":["#.utf8)
        if let (request, schema) = prepared.query {
            if Objects.canSplice(schema, options: request.options) {
                for (offset, stored) in try await store.findDocuments(request).enumerated() {
                    if offset > 0 { out.append(UInt8(ascii: ",")) }
                    try await writeObject(stored, schema: schema, options: request.options, principal: principal, into: &out)
                }
            } else {
                let objects = try await store.find(request)
                for (offset, object) in try await render(objects, schema: schema, options: request.options, principal: principal).enumerated() {
                    if offset > 0 { out.append(UInt8(ascii: ",")) }
                    JSONWriter.write(object, into: &out)
                }
            }
        }
        out.append(UInt8(ascii: "]"))
        if let count = prepared.count {
            out.append(contentsOf: #","count":"#.utf8)
            out.append(contentsOf: String(count).utf8)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `GET /classes/:className/:objectId`'s body, spliced from the stored text as `findBody`.
    public func getBody(_ className: ClassName, objectId: String, params: [String: JSON], principal: Principal) async throws -> [UInt8] {
        let (request, schema) = try await prepareGet(className, objectId: objectId, params: params, principal: principal)
        guard Objects.canSplice(schema, options: request.options) else {
            return JSONWriter.bytes(try await renderedGet(request, schema: schema, principal: principal))
        }
        guard let stored = try await store.findDocuments(request).first else { throw ParseError.objectNotFound }
        var out: [UInt8] = []
        out.reserveCapacity(stored.document.utf8.count + 256)
        try await writeObject(stored, schema: schema, options: request.options, principal: principal, into: &out)
        return out
    }

    /// Whether stored documents of this class, read with these options, go out as stored: no
    /// `include`, no `keys`/`excludeKeys`, no relation placeholders to add, and not an internal
    /// class (their rows hold internal fields).
    static func canSplice(_ schema: ClassSchema, options: FindOptions) -> Bool {
        guard !schema.className.rawValue.hasPrefix("_"), options.include.isEmpty, !options.includeAll, options.keys == nil,
            options.excludeKeys.isEmpty
        else { return false }
        return !schema.fields.values.contains { type in
            if case .relation = type { true } else { false }
        }
    }

    /// One object's wire form: the columns, then the stored document's members as they are. A
    /// document with an internal (`_`-prefixed) member goes the long way, which drops it.
    private func writeObject(
        _ stored: StoredDocument, schema: ClassSchema, options: FindOptions, principal: Principal, into out: inout [UInt8]
    ) async throws {
        guard let members = Objects.members(of: stored.document) else {
            for object in try await render([try stored.decoded()], schema: schema, options: options, principal: principal) {
                JSONWriter.write(object, into: &out)
            }
            return
        }
        guard let created = ParseDate(iso: stored.createdAt), let updated = ParseDate(iso: stored.updatedAt) else {
            throw StorageError.corrupt("a stored row has unreadable dates")
        }
        out.append(contentsOf: #"{"objectId":"#.utf8)
        JSONWriter.writeString(stored.objectId, into: &out)
        out.append(contentsOf: #","createdAt":"#.utf8)
        JSONWriter.writeString(created.iso, into: &out)
        out.append(contentsOf: #","updatedAt":"#.utf8)
        JSONWriter.writeString(updated.iso, into: &out)
        if let acl = try DocumentCoding.acl(read: stored.readers, write: stored.writers) {
            out.append(contentsOf: #","ACL":"#.utf8)
            JSONWriter.write(acl.json, into: &out)
        }
        if !members.isEmpty {
            out.append(UInt8(ascii: ","))
            out.append(contentsOf: members)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// The text between a stored object's braces (empty for `{}`), or nil when it is not an
    /// object or has an internal (`_`-prefixed) member, which only the long way drops.
    static func members(of document: String) -> ArraySlice<UInt8>? {
        let bytes = Array(document.utf8)
        var start = 0
        var end = bytes.count
        while start < end, Objects.isSpace(bytes[start]) { start += 1 }
        while end > start, Objects.isSpace(bytes[end - 1]) { end -= 1 }
        guard end - start >= 2, bytes[start] == UInt8(ascii: "{"), bytes[end - 1] == UInt8(ascii: "}") else { return nil }
        guard Objects.topLevelKeysArePublic(bytes[start..<end]) else { return nil }
        var inner = bytes[(start + 1)..<(end - 1)]
        while let first = inner.first, Objects.isSpace(first) { inner = inner.dropFirst() }
        return inner
    }

    /// Whether no member of the outermost object has a name starting with `_`; values (a
    /// pointer's `"className":"_User"`) may. Strings are skipped with their escapes.
    static func topLevelKeysArePublic(_ text: ArraySlice<UInt8>) -> Bool {
        var depth = 0
        var expectKey = false
        var inString = false
        var escaped = false
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            index += 1
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                if depth == 1, expectKey, index < text.endIndex, text[index] == UInt8(ascii: "_") { return false }
                expectKey = false
                inString = true
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

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
