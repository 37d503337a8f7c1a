import RooftopCore
import RooftopServices
import RooftopStorage

extension ParseRoutes {
    /// One parsed sub-request of `/batch`.
    struct BatchItem {
        var method: String
        var segments: [String]
        var body: [String: JSON]
    }

    /// `POST /batch`: sub-requests through the same routes, answered in order.
    ///
    /// Without `transaction` each item succeeds or fails alone. With `transaction: true` every
    /// item must be an object write; all are checked first and then committed in one database
    /// transaction, so either all happen or none does.
    func batch(_ request: ParseRequest) async throws -> ParseResponse {
        guard request.method == "POST" else { throw Self.unknown(request) }
        guard case .array(let rawItems)? = request.body["requests"] else {
            throw ParseError(.invalidJSON, "requests must be an array")
        }
        guard rawItems.count <= config.batchRequestLimit else {
            throw ParseError(
                .invalidJSON, "Batch request contains \(rawItems.count) sub-requests, which exceeds the limit of \(config.batchRequestLimit).")
        }
        let items = try rawItems.map { raw throws(ParseError) in try batchItem(raw) }
        if request.body["transaction"] == true {
            return ParseResponse(body: .array(try await transaction(items, principal: request.principal)))
        }
        var results: [JSON] = []
        results.reserveCapacity(items.count)
        for item in items {
            // Same caller: same session and address, so every sub-request counts against limits.
            let sub = ParseRequest(
                method: item.method, segments: item.segments, params: item.method == "GET" ? item.body : [:],
                body: item.body, principal: request.principal, sessionToken: request.sessionToken, clientIP: request.clientIP)
            do {
                results.append(["success": try await dispatch(sub).json()])
            } catch let error as ParseError {
                results.append(["error": ["code": .number(Double(error.code.rawValue)), "error": .string(error.message)]])
            } catch is UnauthorizedError {
                results.append(["error": ["code": .number(Double(ParseError.Code.operationForbidden.rawValue)), "error": "unauthorized"]])
            }
        }
        return ParseResponse(body: .array(results))
    }

    private func batchItem(_ raw: JSON) throws(ParseError) -> BatchItem {
        guard case .object(let members) = raw, let method = members["method"]?.stringValue, let path = members["path"]?.stringValue else {
            throw ParseError(.invalidJSON, "Each batch request needs a method and a path.")
        }
        guard ["GET", "POST", "PUT", "DELETE"].contains(method) else { throw ParseError(.invalidJSON, "Invalid batch method.") }
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
        return BatchItem(method: method, segments: segments, body: body)
    }

    private func transaction(_ items: [BatchItem], principal: Principal) async throws -> [JSON] {
        var operations: [WriteOperation] = []
        for item in items {
            let (className, objectId) = try objectTarget(item)
            switch (item.method, objectId) {
            case ("POST", nil): operations.append(try await objects.planCreate(className, body: item.body, principal: principal))
            case ("PUT", let id?): operations.append(try await objects.planUpdate(className, objectId: id, body: item.body, principal: principal))
            case ("DELETE", let id?): operations.append(try await objects.planDelete(className, objectId: id, principal: principal))
            default: throw Self.transactionOnlyWrites
            }
        }
        return try await objects.commit(operations).map { outcome in ["success": .object(try Objects.response(to: outcome))] }
    }

    /// The class and object an object-write path names (`/classes/C(/id)`, `/roles(/id)`).
    private func objectTarget(_ item: BatchItem) throws -> (ClassName, String?) {
        let s = item.segments
        switch (s.first, s.count) {
        case ("classes", 2), ("classes", 3):
            let id = s.count == 3 ? s[2] : nil
            if let id, !ObjectId.isPlausible(id) { throw ParseError.objectNotFound }
            return (try ClassName(s[1]), id)
        case ("roles", 1), ("roles", 2):
            let id = s.count == 2 ? s[1] : nil
            if let id, !ObjectId.isPlausible(id) { throw ParseError.objectNotFound }
            return (.role, id)
        default: throw Self.transactionOnlyWrites
        }
    }

    static let transactionOnlyWrites = ParseError(
        .invalidJSON, "A batch with transaction: true may only create, update and delete objects (/classes, /roles).")
}
