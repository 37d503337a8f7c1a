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
        /// A master key was given and it is not this server's: a master-key route says so.
        var masterKeyRejected = false
    }

    /// Validates keys; strips alias fields from `body` when they were used.
    ///
    /// `clientIP` is the address the rate limits and the audit log use too: behind a trusted
    /// proxy the client it names, never the proxy (every request would come from it).
    func authenticate(headers: HTTPFields, body: inout [String: JSON], clientIP: String?) throws -> Credentials {
        var appId = headers.value(ParseHeader.applicationId)
        var masterKey = headers.value(ParseHeader.masterKey)
        var javascriptKey = headers.value(ParseHeader.javascriptKey)
        var sessionToken = headers.value(ParseHeader.sessionToken)
        var installationId = headers.value(ParseHeader.installationId)
        var clientKey = headers.value(ParseHeader.clientKey)
        if let basic = headers[.authorization], basic.hasPrefix("Basic "),
            let decoded = Data(base64Encoded: String(basic.dropFirst(6))).flatMap({ String(data: $0, encoding: .utf8) }),
            let colon = decoded.firstIndex(of: ":")
        {
            appId = appId ?? String(decoded[..<colon])
            let secret = String(decoded[decoded.index(after: colon)...])
            if secret.hasPrefix("javascript-key=") { javascriptKey = String(secret.dropFirst(15)) } else { masterKey = masterKey ?? secret }
        }
        if appId == nil || !ConstantTime.equals(appId ?? "", config.appId) {
            // Aliases count only when the header is missing or wrong, as in Parse.
            guard let alias = body["_ApplicationId"]?.stringValue else { throw UnauthorizedError.applicationId }
            appId = alias
            masterKey = body["_MasterKey"]?.stringValue ?? masterKey
            javascriptKey = body["_JavaScriptKey"]?.stringValue ?? javascriptKey
            clientKey = body["_ClientKey"]?.stringValue ?? clientKey
            sessionToken = body["_SessionToken"]?.stringValue ?? sessionToken
            installationId = body["_InstallationId"]?.stringValue ?? installationId
            for key in RequestAuthenticator.bodyAliases { body[key] = nil }
        }
        guard let appId, ConstantTime.equals(appId, config.appId) else { throw UnauthorizedError.applicationId }
        var credentials = Credentials(sessionToken: sessionToken, installationId: installationId)
        if let masterKey, ConstantTime.equals(masterKey, config.masterKey) {
            guard let clientIP, config.masterKeyIps.contains("0.0.0.0/0") || AddressRange.any(config.masterKeyIps, contains: clientIP) else {
                throw UnauthorizedError.unauthorized
            }
            credentials.isMaster = true
        } else if masterKey != nil {
            credentials.masterKeyRejected = true
        }
        if !credentials.isMaster, config.clientKey != nil || config.restAPIKey != nil || config.javascriptKey != nil || config.dotNetKey != nil {
            let supplied: [(String?, String?)] = [
                (clientKey, config.clientKey), (javascriptKey, config.javascriptKey),
                (headers.value(ParseHeader.restAPIKey), config.restAPIKey),
                (headers.value(ParseHeader.windowsKey), config.dotNetKey),
            ]
            let matched = supplied.contains { given, expected in
                guard let given, let expected else { return false }
                return ConstantTime.equals(given, expected)
            }
            guard matched else { throw UnauthorizedError.clientKey }
        }
        return credentials
    }
}

/// The Parse headers, named once: making an `HTTPField.Name` validates and lowercases its text,
/// and every request looked up six of them.
enum ParseHeader {
    static let applicationId = HTTPField.Name("X-Parse-Application-Id")
    static let masterKey = HTTPField.Name("X-Parse-Master-Key")
    static let javascriptKey = HTTPField.Name("X-Parse-Javascript-Key")
    static let sessionToken = HTTPField.Name("X-Parse-Session-Token")
    static let installationId = HTTPField.Name("X-Parse-Installation-Id")
    static let clientKey = HTTPField.Name("X-Parse-Client-Key")
    static let restAPIKey = HTTPField.Name("X-Parse-REST-API-Key")
    static let windowsKey = HTTPField.Name("X-Parse-Windows-Key")
}

extension HTTPFields {
    /// The value of the header named `name`, if any (nil for a name that isn't one).
    func value(_ name: HTTPField.Name?) -> String? {
        name.flatMap { self[$0] }
    }
}
