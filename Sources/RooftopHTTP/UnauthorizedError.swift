/// A key failure: 403 with `{"error":"…"}` and no code, as Parse answers. Parse's text is
/// `unauthorized` (a wrong or missing key) or `unauthorized: master key is required`; ours keeps
/// that shape and that first word, and says after it which key to fix when telling does not help
/// a guesser.
struct UnauthorizedError: Error {
    let message: String
    /// A key failure that names nothing: the master key was right but not from `masterKeyIps`
    /// (saying so would tell a guesser the key is right).
    static let unauthorized = UnauthorizedError(message: "unauthorized")
    /// No application id, or not this server's.
    static let applicationId = UnauthorizedError(message: "unauthorized: X-Parse-Application-Id is missing or wrong")
    /// Client keys are configured and none given matches.
    static let clientKey = UnauthorizedError(
        message: "unauthorized: a client key is missing or wrong (X-Parse-Client-Key, X-Parse-REST-API-Key, X-Parse-Javascript-Key or "
            + "X-Parse-Windows-Key)")
    /// A master-key route without a master key (Parse's words).
    static let masterRequired = UnauthorizedError(message: "unauthorized: master key is required")
    /// A master-key route with a master key that is not this server's.
    static let masterKeyWrong = UnauthorizedError(message: "unauthorized: the master key is wrong")
}
