import RooftopCore
import RooftopServices

/// The small routes the Parse SDKs and the dashboard call: analytics events and `/serverInfo`.
extension ParseRoutes {
    /// Rooftop's version, as `/serverInfo` reports it (the SDK's `Rooftop.version` is the same).
    static var serverVersion: String { RooftopVersion.current }

    /// `POST /events/:name`: checked and answered `{}`; nothing is stored.
    func event(_ request: ParseRequest) async throws -> ParseResponse {
        try AnalyticsEvents.check(name: request.pathParameters["name"] ?? "", body: request.body)
        return ParseResponse(body: [:])
    }

    /// `GET /serverInfo` (master key): Parse's shape, `{"features":{…},"parseServerVersion":…}`,
    /// with only the features this server has marked true.
    func serverInfo(_ request: ParseRequest) async throws -> ParseResponse {
        ParseResponse(body: ["features": Self.features, "parseServerVersion": .string(Self.serverVersion)])
    }

    /// What this server does, in the groups and names the Parse dashboard reads.
    static let features: JSON = [
        "globalConfig": ["create": true, "read": true, "update": true, "delete": true],
        "hooks": ["create": true, "read": true, "update": true, "delete": true],
        "cloudCode": ["jobs": true],
        "logs": ["level": false, "size": false, "order": false, "until": false, "from": false],
        "push": ["immediatePush": false, "scheduledPush": false, "storedPushData": false, "pushAudiences": false, "localization": false],
        "schemas": [
            "addField": true, "removeField": true, "addClass": true, "removeClass": true, "clearAllDataFromClass": false,
            "exportClass": false, "editClassLevelPermissions": true, "editPointerPermissions": true,
        ],
    ]
}
