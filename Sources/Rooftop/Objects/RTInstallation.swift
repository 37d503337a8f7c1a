public import Foundation
import RooftopCore

/// This app on this device, as the server's `_Installation` class knows it: where a push
/// service would reach it (`deviceToken`), what it listens to (`channels`) and its badge.
///
/// ```swift
/// let installation = try RTInstallation.current()
/// installation.setDeviceToken(from: tokenData)  // from the system's push registration
/// installation.channels = ["news"]
/// try await installation.save()
/// ```
///
/// There is one per app install: its `installationId` is made on first launch, kept in the
/// storage directory and sent as `X-Parse-Installation-Id` on every request. Saving sends it
/// to `/installations` without a session, and the server creates the installation the first
/// time and updates it afterwards, however many times the app restarts.
open class RTInstallation: RTObject, @unchecked Sendable {
    init(installationId: String) {
        super.init(className: "_Installation")
        boundUser = nil
        self["installationId"] = installationId
        self["deviceType"] = Self.platform
        self["deviceName"] = Self.hostDeviceName
        self["parseVersion"] = Rooftop.version
        let zone = TimeZone.current.identifier
        if TimeZone(identifier: zone) != nil { self["timeZone"] = zone }
        let locale = Locale.current.identifier.replacingOccurrences(of: "_", with: "-")
        if !locale.isEmpty { self["localeIdentifier"] = locale }
        if let identifier = Bundle.main.bundleIdentifier { self["appIdentifier"] = identifier }
        if let version = Bundle.main.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String { self["appVersion"] = version }
        let name = Bundle.main.object(forInfoDictionaryKey: "CFBundleDisplayName") ?? Bundle.main.object(forInfoDictionaryKey: "CFBundleName")
        if let name = name as? String { self["appName"] = name }
    }

    /// The installation of this app on this device (the same object on every call).
    public static func current() throws -> RTInstallation {
        try RTClient.current().installation
    }

    /// The platform, as the Parse SDKs name it.
    static var platform: String {
        #if os(iOS)
            "ios"
        #elseif os(macOS)
            "osx"
        #elseif os(tvOS)
            "tvos"
        #elseif os(watchOS)
            "watchos"
        #elseif os(visionOS)
            "visionos"
        #elseif os(Android)
            "android"
        #elseif os(Windows)
            "windows"
        #elseif os(Linux)
            "linux"
        #else
            "embedded"
        #endif
    }

    /// The name the system gives this device (its host name, without `.local`), which the
    /// server shows in the user's list of sessions.
    static var hostDeviceName: String {
        var name = ProcessInfo.processInfo.hostName
        if name.hasSuffix(".local") { name.removeLast(6) }
        return String(name.prefix(256))
    }

    /// What the user's list of sessions calls this device ("Ana's iPhone"); the host name by
    /// default. Set it before the first sign-in (or save it afterwards) to show another one.
    public var deviceName: String? {
        get { self["deviceName"] as? String }
        set { self["deviceName"] = newValue }
    }

    /// The id this install made on first launch (lowercase UUID).
    public var installationId: String? { self["installationId"] as? String }

    /// `ios`, `osx`, `tvos`, `watchos`, `visionos`, `android`, `windows` or `linux`.
    public var deviceType: String? { self["deviceType"] as? String }

    /// The push token the system gave this device, if the app has one.
    public var deviceToken: String? {
        get { self["deviceToken"] as? String }
        set { self["deviceToken"] = newValue }
    }

    /// Sets `deviceToken` from the bytes the system's push registration gives (as lowercase hex).
    public func setDeviceToken(from data: Data) {
        deviceToken = data.map { byte in String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16) }
            .joined()
    }

    /// The channels this installation is subscribed to: each empty (the broadcast channel) or a
    /// letter followed by letters, digits, `_` and `-`.
    public var channels: [String] {
        get { (self["channels"] as? [Any])?.compactMap { $0 as? String } ?? [] }
        set { self["channels"] = newValue }
    }

    /// The app icon's badge number.
    public var badge: Int {
        get { (self["badge"] as? NSNumber)?.intValue ?? 0 }
        set { self["badge"] = newValue }
    }

    /// The device's time zone when the installation was made (an IANA name).
    public var timeZone: String? { self["timeZone"] as? String }

    /// Sends the unsaved changes with the installation's id, without a session: the server
    /// creates the installation or updates the one it already has for this id.
    func upsert(_ client: RTClient) async throws {
        let (count, body) = try pendingBody()
        if objectId != nil && count == 0 { return }
        var fields = body.objectValue ?? [:]
        fields["installationId"] = .string(client.transport.installationId)
        fields["deviceType"] = .string(deviceType ?? Self.platform)
        let answer = try await client.send(APIRequest(method: "POST", path: "/installations", body: .object(fields)), as: nil)
        guard var saved = answer.objectValue else { throw RTError(.invalidJSON, "The server's answer to a save is not an object.") }
        if let id = saved.removeValue(forKey: "objectId")?.stringValue { objectId = id }
        applySaved(count: count, answer: saved)
    }
}
