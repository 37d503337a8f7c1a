import RooftopCore
import RooftopServices

extension ParseRoutes {
    /// `POST /batch`: sub-requests through the same route table (and so the same access checks
    /// and rate limits), answered in order.
    ///
    /// Without `transaction` each item succeeds or fails alone. With `transaction: true` every
    /// item must be an object write; all are admitted and planned first and then committed in one
    /// database transaction, so either all happen or none does.
    func batch(_ request: ParseRequest) async throws -> ParseResponse {
        guard case .array(let rawItems)? = request.body["requests"] else {
            throw ParseError(.invalidJSON, "requests must be an array")
        }
        guard rawItems.count <= config.batchRequestLimit else {
            throw ParseError(
                .invalidJSON, "Batch request contains \(rawItems.count) sub-requests, which exceeds the limit of \(config.batchRequestLimit).")
        }
        let items = try rawItems.map { raw throws(ParseError) in try batchItem(raw, of: request) }
        if request.body["transaction"] == true {
            return ParseResponse(encoded: try await transaction(items, origin: request.origin))
        }
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (offset, item) in items.enumerated() {
            if offset > 0 { out.append(UInt8(ascii: ",")) }
            do {
                let answer = try await dispatch(item)
                out.append(contentsOf: "{\"success\":".utf8)
                out.append(contentsOf: answer.encoded ?? JSONWriter.bytes(answer.body))
            } catch {
                // Anything but an item's own refusal (a rate limit, a failing database) fails the batch.
                guard let body = ErrorRenderer.batchItemBody(error) else { throw error }
                out.append(contentsOf: "{\"error\":".utf8)
                out.append(contentsOf: body)
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
        return ParseResponse(encoded: out)
    }

    /// One item as a request of the same caller: same session and address, so every item counts
    /// against limits as if sent alone.
    private func batchItem(_ raw: JSON, of batch: ParseRequest) throws(ParseError) -> ParseRequest {
        guard case .object(let members) = raw, let method = members["method"]?.stringValue, let path = members["path"]?.stringValue else {
            throw ParseError(.invalidJSON, "Each batch request needs a method and a path.")
        }
        guard let method = RouteMethod(rawValue: method) else { throw ParseError(.invalidJSON, "Invalid batch method.") }
        var body: [String: JSON] = [:]
        if let value = members["body"], value != .null {
            guard case .object(let object) = value else { throw ParseError(.invalidJSON, "A batch request body must be an object.") }
            body = object
        }
        guard let prefix = config.batchPathPrefixes.first(where: { path.hasPrefix($0 + "/") }) else {
            throw ParseError(.invalidJSON, "cannot route batch path \(ClassName.printable(path))")
        }
        let segments = path.dropFirst(prefix.count).split(separator: "/").map(String.init)
        if segments.first == "batch" { throw ParseError(.invalidJSON, "A batch cannot contain another batch.") }
        var item = ParseRequest(
            method: method, segments: segments, params: method == .get ? body : [:], body: body, principal: batch.principal,
            sessionToken: batch.sessionToken, installationId: batch.installationId, acceptLanguage: batch.acceptLanguage,
            origin: batch.origin, headers: batch.headers)
        // Its credentials are the batch's: a wrong master key is named as on a direct request.
        item.masterKeyRejected = batch.masterKeyRejected
        return item
    }

    private func transaction(_ items: [ParseRequest], origin: RequestOrigin) async throws -> [UInt8] {
        let objects = objects.serving(origin)
        var operations: [PlannedWrite] = []
        // With `deleteUserFiles`: the files of the users this transaction deletes, read before.
        var userFiles: Set<String> = []
        for item in items {
            guard let (route, item) = Self.route(for: item), let write = route.transactional else { throw Self.transactionOnlyWrites }
            // Checked like any request: a transaction is no way around a limit or an access rule.
            try await check(item, against: route)
            let className = try item.className()
            switch write {
            case .create: operations.append(try await objects.plannedCreate(className, body: item.body, principal: item.principal))
            case .update:
                operations.append(
                    try await objects.plannedUpdate(className, objectId: try item.objectId(), body: item.body, principal: item.principal))
            case .delete:
                let objectId = try item.objectId()
                operations.append(try await objects.plannedDelete(className, objectId: objectId, principal: item.principal))
                if className == .user { userFiles.formUnion(try await files.filesOfUser(objectId)) }
            }
        }
        let outcomes = try await objects.commitAnswers(operations).map { answer in ["success": .object(answer)] as JSON }
        // Only once committed (a rolled-back transaction deleted no user); files some object
        // still refers to, the transaction's own writes included, stay.
        _ = try? await files.deleteUnreferenced(userFiles)
        return JSONWriter.bytes(.array(outcomes))
    }

    static let transactionOnlyWrites = ParseError(
        .invalidJSON, "A batch with transaction: true may only create, update and delete objects (/classes, /roles).")
}
