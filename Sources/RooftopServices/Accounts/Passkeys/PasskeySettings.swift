import RooftopCore

/// The relying party the passkey routes speak for (`passkeys` in the configuration): its ID and
/// name, the origins allowed to use it, whether user verification is required, how many passkeys
/// one user may hold, and the native apps the `.well-known` files name.
package struct PasskeySettings: Sendable, Equatable {
    /// The RP ID: the domain passkeys are bound to (`example.com`); nil turns passkeys off (the
    /// server fills it from `publicServerURL`'s host when it is not set).
    package var relyingPartyId: String?
    /// The name authenticators show (the app's name when empty).
    package var relyingPartyName = ""
    /// The exact origins allowed to speak for the RP ID: web origins (`https://example.com`) and
    /// native-app origins (`android:apk-key-hash:…`, made from `androidApps` as well).
    package var origins: [String] = []
    /// Whether the UV flag (biometrics or the device's PIN) is required, else only preferred.
    package var requiresUserVerification = true
    /// Passkeys one user may hold.
    package var maxPerUser = 10
    /// iOS and macOS apps (`TEAMID.bundle.id`) the `apple-app-site-association` file names.
    package var appleAppIds: [String] = []
    /// Android apps the `assetlinks.json` file names.
    package var androidApps: [AndroidApp] = []

    /// An Android app allowed to use the site's passkeys: its package and the SHA-256
    /// fingerprints of its signing certificates (`AB:CD:…`).
    package struct AndroidApp: Sendable, Equatable {
        /// The package name (`com.example.app`).
        package var packageName: String
        /// Signing-certificate fingerprints, colon-separated hex.
        package var fingerprints: [String]

        /// An app.
        package init(packageName: String, fingerprints: [String]) {
            self.packageName = packageName
            self.fingerprints = fingerprints
        }

        /// The WebAuthn origins its fingerprints give (`android:apk-key-hash:` and the
        /// certificate digest in base64url, as Android's credential manager sends it).
        package var origins: [String] {
            fingerprints.compactMap { fingerprint in
                let hex = fingerprint.split(separator: ":")
                let bytes = hex.compactMap { UInt8($0, radix: 16) }
                guard bytes.count == 32, hex.count == 32 else { return nil }
                return "android:apk-key-hash:" + Base64URL.encode(bytes)
            }
        }
    }

    /// The defaults (passkeys off until an RP ID is known).
    package init() {}

    /// Every origin accepted: the configured ones and the Android apps'.
    package var allowedOrigins: [String] { origins + androidApps.flatMap(\.origins) }

    /// Whether a colon-separated SHA-256 fingerprint is well formed.
    package static func isFingerprint(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 32 && parts.allSatisfy { $0.utf8.count == 2 && UInt8($0, radix: 16) != nil }
    }
}
