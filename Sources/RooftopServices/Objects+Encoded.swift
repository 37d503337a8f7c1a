package import RooftopCore
import RooftopStorage

extension Objects {
    /// `GET /classes/:className`'s body, written straight from the stored text when nothing in
    /// the answer needs rewriting; otherwise `find`'s answer, encoded.
    ///
    /// Listing 50 objects spent half its CPU parsing stored documents into `JSON` and writing
    /// them back out unchanged (docs/benchmarks.md, profile of `list`).
    package func findBody(_ className: ClassName, params: [String: JSON], principal: Principal) async throws -> [UInt8] {
        if hasFindTriggers(className) {
            let found = try await find(className, params: params, principal: principal)
            var answer: [String: JSON] = ["results": .array(found.results)]
            answer["count"] = found.count.map { .number(Double($0)) }
            return JSONWriter.bytes(.object(answer))
        }
        let prepared = try await prepareFind(className, params: params, principal: principal)
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        out.append(contentsOf: #"{"results":["#.utf8)
        if let (request, schema) = prepared.query {
            if Objects.canSplice(schema, options: request.options) {
                let rows = try await store.findDocuments(request)
                // Spliced, an object is its document plus about 150 bytes of columns and ACL.
                out.reserveCapacity(rows.reduce(64) { $0 + $1.document.utf8.count + 160 })
                for (offset, stored) in rows.enumerated() {
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
    package func getBody(_ className: ClassName, objectId: String, params: [String: JSON], principal: Principal) async throws -> [UInt8] {
        if hasFindTriggers(className) { return JSONWriter.bytes(try await get(className, objectId: objectId, params: params, principal: principal)) }
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

    /// One object's wire form, spliced when its document allows, else rendered.
    private func writeObject(
        _ stored: StoredDocument, schema: ClassSchema, options: FindOptions, principal: Principal, into out: inout [UInt8]
    ) async throws {
        if try stored.writeWireObject(into: &out) { return }
        for object in try await render([try stored.decoded()], schema: schema, options: options, principal: principal) {
            JSONWriter.write(object, into: &out)
        }
    }
}
