/// An error inside a store; translated into a `ParseError` at the services boundary.
package struct StorageError: Error, Sendable, CustomStringConvertible {
    private enum Kind: Sendable {
        case duplicate(field: String?)
        case unavailable
        case corrupt
    }

    private let kind: Kind
    /// The underlying error, for logs only.
    package let cause: String

    /// A unique constraint failed (the field when known).
    package static func duplicate(field: String?, cause: String) -> StorageError { .init(kind: .duplicate(field: field), cause: cause) }
    /// The database could not be reached or failed.
    package static func unavailable(_ cause: String) -> StorageError { .init(kind: .unavailable, cause: cause) }
    /// Stored data could not be decoded.
    package static func corrupt(_ cause: String) -> StorageError { .init(kind: .corrupt, cause: cause) }

    /// The field of a duplicate-value error.
    package var duplicateField: String?? {
        if case .duplicate(let field) = kind { return .some(field) }
        return nil
    }

    /// A description for logs (never sent to clients).
    package var description: String { "StorageError(\(kind)): \(cause)" }
}
