import RooftopCore
import RooftopStorage

/// What one installation save does, decided from the installations it could concern, as Parse's
/// `RestWrite.handleInstallation` decides it: which installation to update (none: create one),
/// and which stale installations sharing the device token to delete.
struct InstallationMatch {
    /// The installation to update; nil to create one.
    var target: String?
    /// Installations to delete in the same transaction.
    var deletions: [String] = []

    /// - Parameters:
    ///   - found: installations with the save's objectId, installationId or deviceToken.
    ///   - objectId: the installation a `PUT` names (nil for a `POST`).
    ///   - installationId: the body's id, else the client's header id.
    ///   - bodyInstallationId: the body's id only.
    ///   - body: the normalized body.
    init(
        found: [StoredObject], objectId: String?, installationId: String?, bodyInstallationId: String?, body: [String: JSON], isMaster: Bool
    ) throws(ParseError) {
        let deviceToken = body["deviceToken"]?.stringValue
        let deviceType = body["deviceType"]?.stringValue
        let appIdentifier = body["appIdentifier"]?.stringValue
        let objectMatch = objectId.flatMap { id in found.first { $0.objectId == id } }
        let idMatch = installationId.flatMap { id in found.first { Self.installationId(of: $0) == id } }
        let tokenMatches = deviceToken.map { token in found.filter { $0.fields["deviceToken"]?.stringValue == token } } ?? []

        var match: StoredObject?
        if objectId != nil {
            guard let objectMatch else { throw ParseError.objectNotFound }
            let stored = Self.installationId(of: objectMatch)
            // A client names its installation by its id; any other is not found (Parse leaves this to ACLs).
            if !isMaster && (stored == nil || stored != installationId) { throw ParseError.objectNotFound }
            if let bodyInstallationId, let stored, bodyInstallationId != stored {
                throw ParseError(ParseError.Code.immutableField, "installationId may not be changed in this operation")
            }
            if let deviceToken, let storedToken = objectMatch.fields["deviceToken"]?.stringValue, deviceToken != storedToken,
                bodyInstallationId == nil, stored == nil
            {
                throw ParseError(ParseError.Code.immutableField, "deviceToken may not be changed in this operation")
            }
            match = objectMatch
        }
        if let idMatch { match = idMatch }
        if let deviceType, let match, let storedType = match.fields["deviceType"]?.stringValue, storedType != deviceType {
            throw ParseError(ParseError.Code.immutableField, "deviceType may not be changed in this operation")
        }
        if objectId == nil, match == nil, deviceType == nil {
            throw ParseError(ParseError.Code.missingRequiredField, "deviceType must be specified in this operation")
        }

        guard let match else {
            // No installation of this device: the device token decides.
            guard let first = tokenMatches.first else { return }
            if tokenMatches.count == 1, Self.installationId(of: first) == nil || installationId == nil {
                target = first.objectId
            } else if bodyInstallationId == nil {
                throw ParseError(
                    ParseError.Code.invalidInstallationId, "Must specify installationId when deviceToken matches multiple Installation objects")
            } else {
                // The token moved to this new installation: the old ones holding it go.
                deletions = Self.stale(tokenMatches, keeping: installationId, appIdentifier: appIdentifier)
            }
            return
        }
        if tokenMatches.count == 1, let only = tokenMatches.first, Self.installationId(of: only) == nil, only.objectId != match.objectId {
            // The one installation with this token has no installation id: merge into it.
            deletions = [match.objectId]
            target = only.objectId
            return
        }
        if deviceToken != nil, match.fields["deviceToken"]?.stringValue != deviceToken, bodyInstallationId != nil {
            deletions = Self.stale(tokenMatches, keeping: installationId, appIdentifier: appIdentifier).filter { $0 != match.objectId }
        }
        target = match.objectId
    }

    /// The installations holding the token under another installation id (or none), within the
    /// same app when the save names one.
    static func stale(_ matches: [StoredObject], keeping installationId: String?, appIdentifier: String?) -> [String] {
        matches.filter { object in
            Self.installationId(of: object) != installationId
                && (appIdentifier == nil || object.fields["appIdentifier"]?.stringValue == appIdentifier)
        }.map(\.objectId)
    }

    static func installationId(of object: StoredObject) -> String? { object.fields["installationId"]?.stringValue }
}
