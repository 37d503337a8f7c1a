import Foundation
import RooftopConsole
import RooftopHTTP
import RooftopIdentity

extension ServerConfiguration {
    /// What a start should tell the operator about defaults their users would see: the random
    /// application id as the app's name in mails and pages, a sender address that real mail
    /// servers refuse, and a GitHub provider that can't check tokens, and a console over plain http to another machine. Logged once by `serve`;
    /// empty when none applies.
    package func startupWarnings(appId: String) -> [String] {
        var warnings: [String] = []
        if appName == nil {
            warnings.append(
                "appName is not set: mails and hosted pages call this app \"\(appId)\"; "
                    + "set appName in the configuration file or ROOFTOP_APP_NAME")
        }
        if mail.from == nil, mail.transport == "smtp" {
            warnings.append(
                "mail.from is not set: mail is sent from no-reply@localhost, which receiving servers refuse or file as spam; "
                    + "set mail.from (an address of your domain) in the configuration file or ROOFTOP_MAIL")
        }
        for provider in auth where provider.kind == .github && provider.clientCredentials == nil {
            warnings.append(
                "auth.\(provider.name) has no clientId and clientSecret: GitHub access tokens are refused, since only GitHub's token check "
                    + "with this app's credentials shows that a token was issued to this app and not to another one; set both")
        }
        if let plain = consoleOverPlainHTTP {
            warnings.append(
                "the console is served over plain http to \(plain): admin passwords and session cookies would cross the network in clear; "
                    + "put a TLS proxy in front and set publicServerURL to its https address (the console's cookies are then Secure), "
                    + "or set console.enabled false")
        }
        return warnings
    }

    /// The non-loopback address the console answers over plain http, when it does: none behind
    /// an https public URL; else the public URL's host when it is not loopback, else the
    /// listening host when it is not loopback.
    var consoleOverPlainHTTP: String? {
        guard console.enabled else { return nil }
        if let url = (publicServerURL ?? serverURL).flatMap(URLComponents.init(string:)) {
            if url.scheme?.lowercased() == "https" { return nil }
            if let name = url.host, !AddressRange.isLoopbackHost(name) { return name }
        }
        return AddressRange.isLoopbackHost(host) ? nil : host
    }
}
