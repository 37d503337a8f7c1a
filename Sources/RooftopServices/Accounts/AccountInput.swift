import Foundation
import RooftopCore

/// Checks on the credentials a client sends, made before anything is looked up, hashed or stored.
enum AccountInput {
    /// The credential fields that may not hold NUL.
    enum Field {
        case username, email, password
    }

    /// NUL ends a C string: bcrypt's C code stops hashing there (so `secret\0anything` would
    /// verify as `secret`) and text normalization can cut there too (so `admin\0x` would collide
    /// with `admin`). No legitimate credential holds one, so it is refused, never stripped.
    static func refuseNUL(_ text: String, _ field: Field) throws(ParseError) {
        guard text.utf8.contains(0) else { return }
        switch field {
        case .username: throw ParseError(.validationError, "Username must not contain NUL characters.")
        case .email: throw ParseError(.invalidEmailAddress, "Email address must not contain NUL characters.")
        case .password: throw PasswordPolicy.Problem.invalidCharacter.error
        }
    }

    /// `refuseNUL` for a value that may be any JSON: only strings can hold NUL.
    static func refuseNUL(_ value: JSON?, _ field: Field) throws(ParseError) {
        if case .string(let text)? = value { try refuseNUL(text, field) }
    }

    /// The form a password is hashed and verified in: NFC (NIST SP 800-63B §5.1.1.2), so the
    /// composed and decomposed spellings of `é` typed on two keyboards are one password.
    static func normalizedPassword(_ password: String) -> String {
        password.precomposedStringWithCanonicalMapping
    }

    /// The `_User` fields only the account use cases may change, each through its own checks
    /// (hashing, normalization, a provider's validation).
    static let accountFields: Set<String> = ["authData", "username", "email", "password", "emailVerified", "sessionToken"]

    /// Refuses dot-notation keys on account fields (`{"authData.facebook.id":"victim"}`): they
    /// would write into the field past the checks its own key goes through, storing an identity
    /// no provider validated.
    static func refuseDottedAccountKeys(_ body: [String: JSON]) throws(ParseError) {
        for key in body.keys where key.contains(".") {
            let root = String(key.prefix { $0 != "." })
            if accountFields.contains(root) {
                throw ParseError(.invalidKeyName, "\(ClassName.printable(root)) cannot be changed through dot notation.")
            }
        }
    }
}
