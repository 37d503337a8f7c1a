import Foundation
import HTTPTypes
import Hummingbird
import RooftopCore

/// Reads application id, keys and meta fields from headers or JS-SDK body aliases.
struct RequestAuthenticator {
    let config: HTTPConfiguration

    /// Meta fields the JS SDK puts in the body when it cannot send headers.
    static let bodyAliases: Set<String> = [
        "_ApplicationId", "_JavaScriptKey", "_ClientKey", "_MasterKey", "_SessionToken", "_InstallationId", "_ClientVersion",
        "_RevocableSession", "_context", "_ContentType", "_noBody",
    ]

    struct Credentials {
        var isMaster = false
        var sessionToken: String?
        var installationId: String?
    }

    /// Validates keys; strips alias fields from `body` when they were used.
    ///
    /// `clientIP` is the address the rate limits and the audit log use too: behind a trusted
    /// proxy the client it names, never the proxy (every request would come from it).
    func authenticate(headers: HTTPFields, body: inout [String: JSON], clientIP: String?) throws -> Credentials {
        var appId = headers.value("X-Parse-Application-Id")
        var masterKey = headers.value("X-Parse-Master-Key")
        var javascriptKey = headers.value("X-Parse-Javascript-Key")
        var sessionToken = headers.value("X-Parse-Session-Token")
        var installationId = headers.value("X-Parse-Installation-Id")
        var clientKey = headers.value("X-Parse-Client-Key")
        if let basic = headers[.authorization], basic.hasPrefix("Basic "),
            let decoded = Data(base64Encoded: String(basic.dropFirst(6))).flatMap({ String(data: $0, encoding: .utf8) }),
            let colon = decoded.firstIndex(of: ":")
        {
            appId = appId ?? String(decoded[..<colon])
            let secret = String(decoded[decoded.index(after: colon)...])
            if secret.hasPrefix("javascript-key=") { javascriptKey = String(secret.dropFirst(15)) } else { masterKey = masterKey ?? secret }
        }
        if appId == nil || !RequestAuthenticator.constantTimeEquals(appId ?? "", config.appId) {
            // Aliases count only when the header is missing or wrong, as in Parse.
            guard let alias = body["_ApplicationId"]?.stringValue else { throw UnauthorizedError.unauthorized }
            appId = alias
            masterKey = body["_MasterKey"]?.stringValue ?? masterKey
            javascriptKey = body["_JavaScriptKey"]?.stringValue ?? javascriptKey
            clientKey = body["_ClientKey"]?.stringValue ?? clientKey
            sessionToken = body["_SessionToken"]?.stringValue ?? sessionToken
            installationId = body["_InstallationId"]?.stringValue ?? installationId
            for key in RequestAuthenticator.bodyAliases { body[key] = nil }
        }
        guard let appId, RequestAuthenticator.constantTimeEquals(appId, config.appId) else { throw UnauthorizedError.unauthorized }
        var credentials = Credentials(sessionToken: sessionToken, installationId: installationId)
        if let masterKey, RequestAuthenticator.constantTimeEquals(masterKey, config.masterKey) {
            guard let clientIP, config.masterKeyIps.contains("0.0.0.0/0") || AddressRange.any(config.masterKeyIps, contains: clientIP) else {
                throw UnauthorizedError.unauthorized
            }
            credentials.isMaster = true
        }
        if config.requiresClientKey && !credentials.isMaster {
            let supplied: [(String?, String?)] = [
                (clientKey, config.clientKey), (javascriptKey, config.javascriptKey),
                (headers.value("X-Parse-REST-API-Key"), config.restAPIKey),
                (headers.value("X-Parse-Windows-Key"), config.dotNetKey),
            ]
            let matched = supplied.contains { given, expected in
                guard let given, let expected else { return false }
                return RequestAuthenticator.constantTimeEquals(given, expected)
            }
            guard matched else { throw UnauthorizedError.unauthorized }
        }
        return credentials
    }

    /// Compares secrets without an early exit, so timing does not reveal a matching prefix.
    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var diff = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) {
            diff |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)
        }
        return diff == 0
    }
}

extension HTTPFields {
    /// The value of the header named `name`, if any.
    func value(_ name: String) -> String? {
        HTTPField.Name(name).flatMap { self[$0] }
    }
}
