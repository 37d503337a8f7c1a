/// A key failure: 403 with `{"error":"…"}` and no code, as Parse answers.
struct UnauthorizedError: Error {
    let message: String
    static let unauthorized = UnauthorizedError(message: "unauthorized")
    static let masterRequired = UnauthorizedError(message: "unauthorized: master key is required")
}
