import Foundation

/// The form in which usernames and emails are compared and kept unique: Unicode compatibility
/// normalization (NFKC) then lowercasing, so `Ana`, `ana` and `ａｎａ` are one account.
public enum AccountKey {
    /// The normalized key of a username or email.
    public static func normalize(_ text: String) -> String {
        text.precomposedStringWithCompatibilityMapping.lowercased()
    }

    /// A light email shape check (`local@domain.tld`, no spaces), as Parse's (125 otherwise).
    public static func isPlausibleEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix(".") else {
            return false
        }
        return !text.contains(where: \.isWhitespace) && text.utf8.count <= 254
    }
}
