/// A validated top-level field name: the only way a field name reaches SQL.
///
/// Matches `^[A-Za-z][A-Za-z0-9_]*$`, at most 128 characters. Internal names (leading `_`) are
/// never accepted from clients, which closes the internal-field class of Parse advisories.
public struct FieldName: Hashable, Sendable, CustomStringConvertible, Comparable {
    /// The field name.
    public let rawValue: String

    /// Fields every object has, kept in columns rather than in the document.
    public static let defaultFields: Set<String> = ["objectId", "createdAt", "updatedAt", "ACL"]

    /// Validates `rawValue` as a client-visible field name (error 105 otherwise).
    public init(_ rawValue: String) throws(ParseError) {
        guard FieldName.isIdentifier(rawValue) else {
            throw ParseError(.invalidKeyName, "Invalid field name: \(ClassName.printable(rawValue)).")
        }
        self.rawValue = rawValue
    }

    init(trusted: String) { rawValue = trusted }

    /// A server-owned internal field (`_hashed_password`, `_session_token`, …): stored in the
    /// document, never accepted from, returned to, or queryable by clients.
    public static func `internal`(_ name: InternalField) -> FieldName { FieldName(trusted: name.rawValue) }

    /// The internal field holding the id of a user's identity at an `authData` provider
    /// (`_auth_data_<provider>`): uniquely indexed, so one identity can't make two users.
    /// `provider` must be a validated identifier.
    public static func `internal`(authIdOf provider: String) -> FieldName { FieldName(trusted: authIdPrefix + provider) }

    /// A key of a stored document: a field name, or one of the server's internal fields (for
    /// moving data between databases, never for client input).
    public static func stored(_ name: String) throws(ParseError) -> FieldName {
        if InternalField(rawValue: name) != nil { return FieldName(trusted: name) }
        if name.hasPrefix(authIdPrefix), isIdentifier(String(name.dropFirst(authIdPrefix.count))) { return FieldName(trusted: name) }
        return try FieldName(name)
    }

    /// The prefix of `internal(authIdOf:)` fields.
    public static let authIdPrefix = "_auth_data_"

    /// Whether this is a server-owned internal field.
    public var isInternal: Bool { rawValue.hasPrefix("_") }

    /// `objectId`.
    public static let objectId = FieldName(trusted: "objectId")
    /// `createdAt`.
    public static let createdAt = FieldName(trusted: "createdAt")
    /// `updatedAt`.
    public static let updatedAt = FieldName(trusted: "updatedAt")
    /// `ACL`.
    public static let acl = FieldName(trusted: "ACL")
    /// `authData`: a user's linked sign-in methods.
    public static let authData = FieldName(trusted: "authData")

    /// Whether the name is stored in a column rather than in the JSON document.
    public var isDefaultField: Bool { FieldName.defaultFields.contains(rawValue) }

    /// Whether `text` is an ASCII identifier `^[A-Za-z][A-Za-z0-9_]*$` of at most 128 bytes.
    public static func isIdentifier(_ text: String) -> Bool {
        var count = 0
        for byte in text.utf8 {
            count += 1
            if count > 128 { return false }
            let letter = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            if count == 1 {
                guard letter else { return false }
            } else {
                guard letter || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "_") else { return false }
            }
        }
        return count > 0
    }

    /// The field name.
    public var description: String { rawValue }

    /// Orders by name.
    public static func < (lhs: FieldName, rhs: FieldName) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Internal document fields, named as Parse Server's MongoDB adapter names them where it has one.
public enum InternalField: String, Sendable, CaseIterable {
    /// The bcrypt hash of a `_User`'s password.
    case hashedPassword = "_hashed_password"
    /// A `_User`'s username, case-folded and Unicode-normalized: unique.
    case usernameKey = "_username_key"
    /// A `_User`'s email, case-folded and Unicode-normalized: unique when present.
    case emailKey = "_email_key"
    /// SHA-256 of a `_Session`'s token: unique; the token itself is never stored.
    case sessionToken = "_session_token"
    /// SHA-256 of a `_User`'s pending email-verification token; once the token is used,
    /// `consumed:` and its SHA-256, which no link can use again but which lets a second click
    /// of the same link say the address is verified.
    case emailVerifyToken = "_email_verify_token"
    /// When that token stops working, in milliseconds since 1970.
    case emailVerifyTokenExpiresAt = "_email_verify_token_expires_at"
    /// SHA-256 of a `_User`'s pending password-reset token (Parse's name).
    case resetToken = "_perishable_token"
    /// When that token stops working, in milliseconds since 1970.
    case resetTokenExpiresAt = "_perishable_token_expires_at"
    /// Earlier password hashes, newest first, as many as `maxPasswordHistory` needs (Parse's name).
    case passwordHistory = "_password_history"
    /// When the password was last set, in milliseconds since 1970 (Parse's name).
    case passwordChangedAt = "_password_changed_at"
    /// Login attempts since the last success or unlock (Parse's name).
    case failedLoginCount = "_failed_login_count"
    /// When a lockout ends, in milliseconds since 1970 (Parse's name).
    case lockoutExpiresAt = "_account_lockout_expires_at"
    /// A `_User`'s second factor, as JSON text: its TOTP secret sealed under a server key, the
    /// last step used, recovery code digests and failures (`SecondFactorState`).
    case secondFactor = "_second_factor"
    /// A second factor being set up through Rooftop's own routes, as JSON text: the sealed secret
    /// made by the server, and until when the first code may confirm it.
    case secondFactorPending = "_second_factor_pending"
    /// A `_User`'s passkeys, as JSON text: each credential's id, COSE public key, name, counter
    /// and flags (`StoredPasskeys`).
    case passkeys = "_passkeys"
}

/// A validated dot path into a document (`stats.wins`): a field name and nested keys.
///
/// Nested keys follow the field-name rule too, so no path segment can carry quotes, `$` or SQL.
public struct FieldPath: Hashable, Sendable, CustomStringConvertible {
    /// The top-level field.
    public let field: FieldName
    /// The keys below it, outermost first.
    public let subkeys: [String]

    /// Creates a path from a validated field and validated subkeys.
    public init(field: FieldName, subkeys: [String] = []) {
        self.field = field
        self.subkeys = subkeys
    }

    /// Parses `a.b.c`; every segment must be an identifier (105 otherwise).
    public init(parsing text: String) throws(ParseError) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let first = parts.first, parts.count <= 16 else {
            throw ParseError(.invalidKeyName, "Invalid field name: \(ClassName.printable(text)).")
        }
        field = try FieldName(first)
        for part in parts.dropFirst() where !FieldName.isIdentifier(part) {
            throw ParseError(.invalidKeyName, "Invalid field name: \(ClassName.printable(text)).")
        }
        subkeys = Array(parts.dropFirst())
    }

    /// The path as written, `a.b.c`.
    public var description: String { ([field.rawValue] + subkeys).joined(separator: ".") }
}
