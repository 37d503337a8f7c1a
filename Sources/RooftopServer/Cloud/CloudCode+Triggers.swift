import RooftopServices

/// Triggers: Swift code that runs around the writes, reads and logins of a class, on every
/// route that reaches them (`/classes`, `/users`, `/batch`, transactions, installations and
/// handlers' own writes). A before-trigger refuses by throwing (a `ParseError` reaches the
/// client as is, anything else as 141); an after-trigger's failure is only logged. Each one
/// runs within `timeout` (the server's `handlerTimeout` when `nil`).
extension CloudCode {
    /// Runs before an object of `className` is created or updated (Parse's `beforeSave`): the
    /// handler may change `request.object` (the changes), which are then checked exactly as the
    /// client's own, with the same access rules. For `_User`, `password` and `authData` are
    /// neither shown nor changeable.
    public mutating func beforeSave(
        _ className: String, timeout: Duration? = nil, _ handler: @escaping @Sendable (inout TriggerRequest) async throws -> Void
    ) {
        register(.beforeSave, className, timeout, handler)
    }

    /// Runs after an object of `className` was created or updated (Parse's `afterSave`).
    public mutating func afterSave(
        _ className: String, timeout: Duration? = nil, _ handler: @escaping @Sendable (TriggerRequest) async throws -> Void
    ) {
        register(.afterSave, className, timeout, observing: handler)
    }

    /// Runs before an object of `className` is deleted (Parse's `beforeDelete`); throw to refuse.
    public mutating func beforeDelete(
        _ className: String, timeout: Duration? = nil, _ handler: @escaping @Sendable (TriggerRequest) async throws -> Void
    ) {
        register(.beforeDelete, className, timeout, observing: handler)
    }

    /// Runs after an object of `className` was deleted (Parse's `afterDelete`).
    public mutating func afterDelete(
        _ className: String, timeout: Duration? = nil, _ handler: @escaping @Sendable (TriggerRequest) async throws -> Void
    ) {
        register(.afterDelete, className, timeout, observing: handler)
    }

    /// Runs before a query or get on `className` (Parse's `beforeFind`): the handler may change
    /// `request.object` (the parameters, such as `where`), or throw to refuse.
    public mutating func beforeFind(
        _ className: String, timeout: Duration? = nil, _ handler: @escaping @Sendable (inout TriggerRequest) async throws -> Void
    ) {
        register(.beforeFind, className, timeout, handler)
    }

    /// Runs after a query or get on `className` with `request.results` (Parse's `afterFind`);
    /// it cannot change the answer.
    public mutating func afterFind(
        _ className: String, timeout: Duration? = nil, _ handler: @escaping @Sendable (TriggerRequest) async throws -> Void
    ) {
        register(.afterFind, className, timeout, observing: handler)
    }

    /// Runs when a user's credentials checked out (password or a sign-in provider), before the
    /// session is made (Parse's `beforeLogin`); throw to refuse the login.
    public mutating func beforeLogin(timeout: Duration? = nil, _ handler: @escaping @Sendable (TriggerRequest) async throws -> Void) {
        register(.beforeLogin, "_User", timeout, observing: handler)
    }

    /// Runs after a login made its session (Parse's `afterLogin`).
    public mutating func afterLogin(timeout: Duration? = nil, _ handler: @escaping @Sendable (TriggerRequest) async throws -> Void) {
        register(.afterLogin, "_User", timeout, observing: handler)
    }

    /// Runs after a logout ended its session; `request.object` is the session (Parse's
    /// `afterLogout`).
    public mutating func afterLogout(timeout: Duration? = nil, _ handler: @escaping @Sendable (TriggerRequest) async throws -> Void) {
        register(.afterLogout, "_Session", timeout, observing: handler)
    }

    /// Runs when a password reset is requested for an existing user, before its mail (Parse's
    /// `beforePasswordResetRequest`); throw to send nothing. While `resetPasswordSuccessOnInvalidEmail`
    /// is on (the default) the answer never depends on the account, so a refusal only stops the mail.
    public mutating func beforePasswordResetRequest(
        timeout: Duration? = nil, _ handler: @escaping @Sendable (TriggerRequest) async throws -> Void
    ) {
        register(.beforePasswordResetRequest, "_User", timeout, observing: handler)
    }

    private mutating func register(
        _ kind: TriggerKind, _ className: String, _ timeout: Duration?, _ handler: @escaping @Sendable (inout TriggerRequest) async throws -> Void
    ) {
        handlers.triggers[TriggerKey(kind, className)] = CloudTrigger(timeout: timeout) { event in
            var request = TriggerRequest(event)
            try await handler(&request)
            return request.object
        }
    }

    /// An observer is a changing handler that leaves `object` as it was.
    private mutating func register(
        _ kind: TriggerKind, _ className: String, _ timeout: Duration?, observing handler: @escaping @Sendable (TriggerRequest) async throws -> Void
    ) {
        register(kind, className, timeout) { (request: inout TriggerRequest) in try await handler(request) }
    }
}
