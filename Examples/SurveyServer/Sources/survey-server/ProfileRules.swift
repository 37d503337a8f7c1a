import RooftopServer

/// The rules around the user's profile that hold whichever route a write takes: only the
/// server completes a sign-up, and each completion leaves an audit entry.
enum ProfileRules {
    /// The fields `finishSignUp` owns: a client's own `PUT /users/:id` may not set them.
    static let serverOwned: Set<String> = ["signUpComplete", "firstName", "lastName", "frequency", "intensity"]

    /// `beforeSave` of `_User`: refuses a client's change to a server-owned field (the master
    /// key's writes — `finishSignUp`'s — pass).
    @Sendable static func beforeSave(_ request: inout TriggerRequest) async throws {
        guard !request.isMaster else { return }
        if let field = serverOwned.sorted().first(where: { request.object[$0] != nil }) {
            throw ParseError(.operationForbidden, "\(field) is set by finishSignUp, not by the app.")
        }
    }

    /// `afterSave` of `_User`: the moment a sign-up becomes complete, an `AuditEntry` records it.
    @Sendable static func afterSave(_ request: TriggerRequest) async throws {
        guard request.object["signUpComplete"] == true, request.original?["signUpComplete"] != true, let userId = request.objectId else { return }
        let user: JSON = ["__type": "Pointer", "className": "_User", "objectId": .string(userId)]
        // As the master key, said explicitly: the audit class is closed to clients.
        _ = try await request.objects.create("AuditEntry", ["event": "signUpCompleted", "user": user, "ACL": [:]], as: .master)
    }
}

/// A daily job: how many accounts never finished the survey.
enum IncompleteSignUps {
    /// The job's name (`POST /jobs/countIncompleteSignUps`).
    static let name = "countIncompleteSignUps"

    /// Counts users whose sign-up is not complete and records it as the run's message.
    @Sendable static func run(_ request: JobRequest) async throws {
        let incomplete = try await request.objects.find("_User", where: ["signUpComplete": ["$ne": true]], limit: 1000, as: .master)
        await request.message("\(incomplete.count) sign-ups are not complete")
    }
}
