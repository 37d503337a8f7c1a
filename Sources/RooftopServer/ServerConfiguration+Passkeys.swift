import Foundation
import RooftopCore
package import RooftopServices

extension ServerConfiguration {
    /// `passkeys`: the relying party, its origins and the native apps.
    static let passkeyKey = ConfigKey.subTable(
        "passkeys",
        "sign-in with passkeys (WebAuthn) and passkeys as a second factor; on whenever an RP ID is known "
            + "([passkeys.md](passkeys.md))",
        members: passkeyMembers, check: checkPasskeys)

    static let passkeyMembers: [ConfigKey] = [
        .optionalString(
            "passkeys.relyingPartyId", \.accounts.passkeys.relyingPartyId,
            "the domain passkeys are bound to (`example.com`); it can't change later without every passkey being registered again",
            defaultNote: "`publicServerURL`'s host (`localhost` for a loopback address)"),
        .string("passkeys.relyingPartyName", \.accounts.passkeys.relyingPartyName, "the name authenticators show (empty: `appName`)"),
        ConfigKey(
            "passkeys.origins", .list,
            "the exact origins allowed to use the RP ID: web pages (`https://example.com`, `http://localhost:1337`) and native "
                + "apps (`android:apk-key-hash:…`; `androidApps` adds its own)",
            defaultNote: "`publicServerURL`'s origin",
            apply: { configuration, value in
                let origins = try value.list()
                try value.require(
                    origins.allSatisfy(isPasskeyOrigin), "must be https:// origins (http:// for localhost) or android:apk-key-hash: origins")
                configuration.accounts.passkeys.origins = origins
            }, show: { .array($0.accounts.passkeys.origins.map(JSON.string)) }),
        .string(
            "passkeys.userVerification", \.passkeyUserVerification,
            "`required`: the authenticator must verify the user (biometrics or the device's PIN); `preferred`: presence is enough",
            valid: { ["required", "preferred"].contains($0) }, problem: "must be required or preferred"),
        .int("passkeys.maxPerUser", \.accounts.passkeys.maxPerUser, "passkeys one user may hold (1–100)", in: 1...100),
        .list(
            "passkeys.appleAppIds", \.accounts.passkeys.appleAppIds,
            "apps (`TEAMID.com.example.app`) named in `/.well-known/apple-app-site-association` (`webcredentials`)"),
        ConfigKey(
            "passkeys.androidApps", .array,
            "apps named in `/.well-known/assetlinks.json`: `[{\"package\":\"com.example.app\",\"fingerprints\":[\"AB:CD:…\"]}]` "
                + "(SHA-256 signing-certificate fingerprints); their origins are allowed",
            apply: { configuration, value in configuration.accounts.passkeys.androidApps = try androidApps(value) },
            show: { configuration in
                .array(
                    configuration.accounts.passkeys.androidApps.map {
                        ["package": .string($0.packageName), "fingerprints": .array($0.fingerprints.map(JSON.string))]
                    })
            }),
    ]

    /// `passkeys.userVerification` as written.
    var passkeyUserVerification: String {
        get { accounts.passkeys.requiresUserVerification ? "required" : "preferred" }
        set { accounts.passkeys.requiresUserVerification = newValue == "required" }
    }

    /// The Android apps of `passkeys.androidApps`.
    static func androidApps(_ value: ConfigValue) throws -> [PasskeySettings.AndroidApp] {
        try value.array().enumerated().map { index, item in
            let entry = value.member("\(index)", item)
            let fields = try entry.object()
            guard case .string(let package)? = fields["package"], !package.isEmpty, case .array(let prints)? = fields["fingerprints"] else {
                throw entry.error("needs package and fingerprints")
            }
            let fingerprints = prints.compactMap(\.stringValue).map { $0.uppercased() }
            try entry.require(
                fingerprints.count == prints.count && !fingerprints.isEmpty && fingerprints.allSatisfy(PasskeySettings.isFingerprint),
                "fingerprints must be SHA-256 fingerprints (32 colon-separated hex bytes)")
            return PasskeySettings.AndroidApp(packageName: package, fingerprints: fingerprints)
        }
    }

    /// An origin a passkey may come from: `https://host[:port]`, `http://localhost[:port]`, or an
    /// Android app's `android:apk-key-hash:…`.
    static func isPasskeyOrigin(_ origin: String) -> Bool {
        if origin.hasPrefix("android:apk-key-hash:") { return Base64URL.decode(String(origin.dropFirst(21)))?.count == 32 }
        guard let components = URLComponents(string: origin), let host = components.host, !host.isEmpty,
            components.path.isEmpty, components.query == nil, components.fragment == nil, components.user == nil
        else { return false }
        return components.scheme == "https" || (components.scheme == "http" && host == "localhost")
    }

    /// The RP ID must be each web origin's host or a parent domain of it (WebAuthn §5.1.3).
    /// Origins name the RP ID they are checked against; an IP address is no RP ID (browsers refuse one).
    static func checkPasskeys(_ configuration: inout ServerConfiguration, _ value: ConfigValue) throws {
        guard let relyingPartyId = configuration.accounts.passkeys.relyingPartyId else {
            try value.require(configuration.accounts.passkeys.origins.isEmpty, "origins need relyingPartyId, the domain they are on")
            return
        }
        try value.require(
            !relyingPartyId.isEmpty && !relyingPartyId.contains("/") && !relyingPartyId.contains(":")
                && relyingPartyId == relyingPartyId.lowercased() && !relyingPartyId.allSatisfy({ $0.isNumber || $0 == "." }),
            "relyingPartyId must be a lowercase domain name, without scheme or port (not an IP address)")
        for origin in configuration.accounts.passkeys.origins where !origin.hasPrefix("android:") {
            let host = URLComponents(string: origin)?.host ?? ""
            try value.require(
                host == relyingPartyId || host.hasSuffix("." + relyingPartyId), "origin \(origin) is not on \(relyingPartyId) or below it")
        }
    }

    /// The passkey settings the server runs with: an unset RP ID and origins come from
    /// `publicServerURL` (this server's own address in development), with a loopback address
    /// read as `localhost` (browsers refuse an IP address as an RP ID).
    package var effectivePasskeys: PasskeySettings {
        var settings = accounts.passkeys
        guard let url = effectivePublicServerURL.flatMap(URLComponents.init(string:)), let scheme = url.scheme, var host = url.host else {
            return settings
        }
        if ["127.0.0.1", "::1", "[::1]"].contains(host) { host = "localhost" }
        if settings.relyingPartyId == nil { settings.relyingPartyId = host }
        if settings.origins.isEmpty { settings.origins = ["\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")] }
        return settings
    }
}
