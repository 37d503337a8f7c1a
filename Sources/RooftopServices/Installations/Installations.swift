package import RooftopCore
import RooftopStorage

/// `_Installation` with Parse's rules, behind `/installations` and `/classes/_Installation` alike.
///
/// A client saves its own installation without a session, found by `installationId` (from the
/// body or `X-Parse-Installation-Id`) or by `deviceToken`; a save that finds one updates it, and
/// stale installations holding the same device token are deleted in the same transaction.
/// Listing and deleting need the master key; a client reads and updates only the installation
/// whose `installationId` it presents (pinned in the query and in the UPDATE statement).
package struct Installations: Sendable {
    let objects: Objects

    /// Creates the use case over the object use cases.
    package init(objects: Objects) { self.objects = objects }

    /// A save's answer: `created` for 201 (a new installation), else 200.
    package struct Saved: Sendable {
        /// Whether a new installation was created.
        package var created: Bool
        /// The installation written.
        package var objectId: String
        /// `{objectId, createdAt}` for a create, `{objectId?, updatedAt, …}` for an update.
        package var answer: [String: JSON]
    }

    /// `POST` (`objectId` nil) or `PUT /installations/:objectId`.
    ///
    /// - Parameter installationId: the request's `X-Parse-Installation-Id`, if any.
    package func save(body: [String: JSON], objectId: String?, principal: Principal, installationId header: String?) async throws -> Saved {
        do {
            return try await saveOnce(body: body, objectId: objectId, principal: principal, installationId: header)
        } catch let error as ParseError where error.code == .duplicateValue {
            // `installationId` is unique: a concurrent first save of the same device created the
            // installation between this save's lookup and its write. Looked up again, it is found
            // and updated, as if the two saves had come one after the other.
            return try await saveOnce(body: body, objectId: objectId, principal: principal, installationId: header)
        }
    }

    private func saveOnce(body: [String: JSON], objectId: String?, principal: Principal, installationId header: String?) async throws -> Saved {
        var body = try InstallationFields.normalized(body)
        let bodyId = body["installationId"]?.stringValue
        let installationId = try bodyId ?? (principal.isMaster ? nil : header.map(InstallationFields.installationId))
        let deviceToken = body["deviceToken"]?.stringValue
        if objectId == nil {
            guard installationId != nil || deviceToken != nil else {
                throw ParseError(
                    ParseError.Code.missingRequiredField, "at least one ID field (deviceToken, installationId) must be specified in this operation"
                )
            }
            // The header's id is the device's: stored, so the device finds its installation again.
            if bodyId == nil, let installationId { body["installationId"] = .string(installationId) }
        }
        let found = try await lookup(objectId: objectId, installationId: installationId, deviceToken: deviceToken)
        let plan = try InstallationMatch(
            found: found, objectId: objectId, installationId: installationId, bodyInstallationId: bodyId, body: body, isMaster: principal.isMaster)
        let cleanup = plan.deletions.map { WriteOperation.delete(className: .installation, objectId: $0, access: .master) }
        if let target = plan.target {
            let stored = found.first { $0.objectId == target }
            guard InstallationFields.channelCount(after: body["channels"], existing: stored?.fields["channels"]) <= InstallationFields.maxChannels
            else { throw ParseError(.validationError, "An installation has at most \(InstallationFields.maxChannels) channels.") }
            body["objectId"] = nil
            body["createdAt"] = nil
            var update = try await objects.planAdmittedUpdate(.installation, objectId: target, body: body, principal: principal)
            // A client updates only the installation it names, checked in the UPDATE itself.
            if !principal.isMaster, objectId != nil, let installationId,
                case .update(let c, let id, let at, let write, let access, let grant) = update
            {
                update = .update(
                    className: c, objectId: id, at: at, write: write, access: access.requiring(FieldName.installationId, equals: installationId),
                    grant: grant)
            }
            let outcomes = try await objects.writeGroup(cleanup + [update])
            guard let outcome = outcomes.last else { throw ParseError.internalError }
            var answer = try Objects.response(to: outcome)
            answer["objectId"] = .string(target)
            return Saved(created: false, objectId: target, answer: answer)
        }
        let insert = try await objects.planAdmittedCreate(.installation, body: body, principal: principal)
        guard let outcome = try await objects.writeGroup(cleanup + [insert]).last, case .inserted(let object) = outcome else {
            throw ParseError.internalError
        }
        return Saved(created: true, objectId: object.objectId, answer: try Objects.response(to: outcome))
    }

    /// `GET /installations/:objectId`: any installation with the master key; otherwise only the
    /// one whose `installationId` the request carries (101 for any other).
    package func get(objectId: String, params: [String: JSON], principal: Principal, installationId header: String?) async throws -> [UInt8] {
        if principal.isMaster { return try await objects.getBody(.installation, objectId: objectId, params: params, principal: principal) }
        guard let header, let own = try? InstallationFields.installationId(header) else { throw ParseError.objectNotFound }
        let pin = QueryNode.field(FieldPath(field: .installationId), .equals(.string(own)))
        let (request, schema) = try await objects.prepareGet(.installation, objectId: objectId, params: params, principal: principal, pin: pin)
        return JSONWriter.bytes(try await objects.renderedGet(request, schema: schema, principal: principal))
    }

    /// `GET /installations`: the master key only (119 otherwise, as in Parse).
    package func find(params: [String: JSON], principal: Principal) async throws -> [UInt8] {
        try Self.masterOnly("find", principal)
        return try await objects.findBody(.installation, params: params, principal: principal)
    }

    /// `DELETE /installations/:objectId`: the master key only (119 otherwise, as in Parse).
    package func delete(objectId: String, principal: Principal) async throws {
        try Self.masterOnly("delete", principal)
        try await objects.delete(.installation, objectId: objectId, principal: principal)
    }

    /// 119 with Parse's message unless the master key asks.
    static func masterOnly(_ operation: String, _ principal: Principal) throws(ParseError) {
        guard principal.isMaster else {
            throw ParseError(.operationForbidden, "Clients aren't allowed to perform the \(operation) operation on the installation collection.")
        }
    }

    /// Every installation the save could concern: by id, by installation id, by device token
    /// (read with the server's own access; at most 100, enough for any real device).
    private func lookup(objectId: String?, installationId: String?, deviceToken: String?) async throws -> [StoredObject] {
        var alternatives: [QueryNode] = []
        if let objectId { alternatives.append(.field(FieldPath(field: .objectId), .equals(.string(objectId)))) }
        if let installationId { alternatives.append(.field(FieldPath(field: .installationId), .equals(.string(installationId)))) }
        if let deviceToken { alternatives.append(.field(FieldPath(field: .deviceToken), .equals(.string(deviceToken)))) }
        // No check of the cached schema first: a class another node (or a concurrent save) just
        // created may not be in this node's cache yet, and `find` reloads it for an unknown class.
        guard !alternatives.isEmpty else { return [] }
        var options = FindOptions()
        options.limit = 100
        let request = FindRequest(
            className: .installation, query: .or(alternatives), options: options, scope: AccessScope(classes: [.installation: .master]))
        return try await objects.store.find(request)
    }
}

extension FieldName {
    /// `installationId`.
    static let installationId = FieldName.known("installationId")
    /// `deviceToken`.
    static let deviceToken = FieldName.known("deviceToken")

    /// A field name known to be valid.
    private static func known(_ name: String) -> FieldName {
        (try? FieldName(name)) ?? .objectId
    }
}
