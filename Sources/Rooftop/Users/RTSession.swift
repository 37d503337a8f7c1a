public import Foundation
import RooftopCore

/// One place a user is signed in: a device, as the server recorded it when the session opened
/// (from the device's installation), when it was last used, and whether it is this one.
///
/// ```swift
/// for session in try await user.sessions() where !session.isCurrent {
///     print(session.deviceName ?? "Unknown device", session.lastUsedAt ?? .distantPast)
/// }
/// let signedOut = try await user.signOutOtherDevices()
/// ```
public final class RTSession: Sendable {
    /// The session's objectId.
    public let objectId: String
    /// What the device calls itself ("Ana's iPhone"), when its installation said.
    public let deviceName: String?
    /// The platform: `ios`, `osx`, `android`, `linux` …
    public let deviceType: String?
    /// The app's name on that device.
    public let appName: String?
    /// The app's version on that device.
    public let appVersion: String?
    /// The network the session was opened from (`203.0.113.0/24`), not the address itself.
    public let createdAddress: String?
    /// When the session was opened.
    public let createdAt: Date?
    /// When it was last used (to within a few minutes).
    public let lastUsedAt: Date?
    /// The installation it belongs to.
    public let installationId: String?
    /// Whether this is the session of this device (the user's own session here).
    public let isCurrent: Bool
    let owner: RTUser

    init?(_ json: JSON, owner: RTUser) {
        guard let objectId = json["objectId"]?.stringValue else { return nil }
        self.objectId = objectId
        deviceName = json["deviceName"]?.stringValue
        deviceType = json["deviceType"]?.stringValue
        appName = json["appName"]?.stringValue
        appVersion = json["appVersion"]?.stringValue
        createdAddress = json["createdAddress"]?.stringValue
        createdAt = json["createdAt"]?.stringValue.flatMap(ParseDate.init(iso:))?.date
        lastUsedAt = json["lastUsedAt"]?["iso"]?.stringValue.flatMap(ParseDate.init(iso:))?.date
        installationId = json["installationId"]?.stringValue
        isCurrent = json["current"] == true
        self.owner = owner
    }

    /// Signs this device out: the session ends at once on the server, and that device's next
    /// call finds its user logged out. Revoking the current session logs the user out here.
    public func revoke() async throws {
        if isCurrent {
            try await owner.logOut()
            return
        }
        let client = try RTClient.current()
        _ = try await client.send(APIRequest(method: "DELETE", path: "/sessions/" + objectId), as: owner)
    }

    /// `revoke()` in the background; `block` gets nil or the error.
    public func revokeInBackground(block: (@Sendable (NSError?) -> Void)? = nil) {
        Callback.deliverError(block) { try await self.revoke() }
    }

    /// `revoke()`, blocking the calling thread.
    @available(*, noasync, message: "use the async revoke()")
    public func revoke() throws { try Callback.wait { try await self.revoke() } }
}

extension RTUser {
    /// Every device this user is signed in on (its sessions), this one marked ``RTSession/isCurrent``.
    public func sessions() async throws -> [RTSession] {
        let client = try RTClient.current()
        let answer = try await client.send(APIRequest(method: "GET", path: "/sessions"), as: self)
        guard let results = answer["results"]?.arrayValue else { throw RTError(.invalidJSON, "The server's answer has no sessions.") }
        return results.compactMap { RTSession($0, owner: self) }
    }

    /// Signs this user out of every other device at once (this one stays signed in); how many
    /// sessions ended.
    @discardableResult
    public func signOutOtherDevices() async throws -> Int {
        let client = try RTClient.current()
        let answer = try await client.send(APIRequest(method: "POST", path: "/sessions/revokeOthers", body: [:]), as: self)
        return answer["revoked"]?.intValue ?? 0
    }

    /// `sessions()` in the background.
    public func sessionsInBackground(block: (@Sendable ([RTSession]?, NSError?) -> Void)? = nil) {
        Callback.deliver(block) { try await self.sessions() }
    }

    /// `signOutOtherDevices()` in the background; `block` gets how many sessions ended.
    public func signOutOtherDevicesInBackground(block: (@Sendable (Int?, NSError?) -> Void)? = nil) {
        Callback.deliver(block) { try await self.signOutOtherDevices() }
    }

    /// `sessions()`, blocking the calling thread.
    @available(*, noasync, message: "use the async sessions()")
    public func sessions() throws -> [RTSession] { try Callback.wait { try await self.sessions() } }

    /// `signOutOtherDevices()`, blocking the calling thread.
    @available(*, noasync, message: "use the async signOutOtherDevices()")
    @discardableResult
    public func signOutOtherDevices() throws -> Int { try Callback.wait { try await self.signOutOtherDevices() } }
}
