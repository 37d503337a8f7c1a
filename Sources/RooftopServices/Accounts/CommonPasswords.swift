/// The 10,000 most common passwords, most common first: the "passwords" frequency list of
/// zxcvbn 4.5.0 (MIT licence, from leaked-password corpora), cut at 10,000. Passwords on it are
/// refused (NIST SP 800-63B rev 4 §3.1.1.2, ASVS V6.2.4).
///
/// The list is `Resources/common-passwords.txt`, one password a line, embedded in the binary at
/// build time (no resource bundle to ship beside it).
enum CommonPasswords {
    /// Lowercased, for a case-insensitive match.
    static let set: Set<String> = Set(
        String(decoding: PackageResources.common_passwords_txt, as: UTF8.self).split(separator: "\n").map { $0.lowercased() })
}
