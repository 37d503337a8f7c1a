import Foundation

/// The SDK's state after `Rooftop.initialize`: the transport, the users on this device and the
/// app-wide settings (default ACL, automatic user).
final class RTClient: @unchecked Sendable {
    let configuration: RTConfiguration
    let transport: Transport
    let users: UserSessions
    private let lock = NSLock()
    private var defaultACLSetting: (acl: RTACL, forCurrentUser: Bool)?
    private var automaticUser = false
    private var currentInstallation: RTInstallation?
    private var config: RTConfig?

    init(configuration: RTConfiguration) {
        self.configuration = configuration
        let warn = configuration.warningHandler ?? { message in FileHandle.standardError.write(Data("[Rooftop] \(message)\n".utf8)) }
        let directory = configuration.resolvedStorageDirectory
        let installationId = Installation.id(in: directory, warn: warn)
        transport = Transport(configuration: configuration, installationId: installationId)
        users = UserSessions(
            store: CredentialStores.make(configuration, directory: directory), applicationId: configuration.applicationId, warn: warn)
    }

    private static let globalLock = NSLock()
    nonisolated(unsafe) private static var installed: RTClient?

    /// Makes `client` the one every call uses.
    static func install(_ client: RTClient) {
        globalLock.withLock { installed = client }
    }

    /// The installed client; `notInitialized` (109) before `Rooftop.initialize`.
    static func current() throws(RTError) -> RTClient {
        guard let client = globalLock.withLock({ installed }) else {
            throw RTError(.notInitialized, "Call Rooftop.initialize(applicationId:clientKey:server:) first.")
        }
        return client
    }

    /// The installed client, or nil (for calls that answer without the network).
    static var currentIfInstalled: RTClient? { globalLock.withLock { installed } }

    var defaultACL: (acl: RTACL, forCurrentUser: Bool)? {
        get { lock.withLock { defaultACLSetting } }
        set { lock.withLock { defaultACLSetting = newValue } }
    }

    /// This install's `RTInstallation`, made on first use with the transport's installation id.
    var installation: RTInstallation {
        lock.withLock {
            if let currentInstallation { return currentInstallation }
            let made = RTInstallation(installationId: transport.installationId)
            currentInstallation = made
            return made
        }
    }

    /// The Parse Config fetched last, in memory.
    var lastConfig: RTConfig? {
        get { lock.withLock { config } }
        set { lock.withLock { config = newValue } }
    }

    /// Saves this install's installation (once per launch; the server creates it the first
    /// time and updates it afterwards) so the session about to open is tied to a device the user
    /// can recognise. A failure never stops the sign-in.
    func registerDevice() async {
        try? await installation.upsert(self)
    }

    var automaticUserEnabled: Bool {
        get { lock.withLock { automaticUser } }
        set { lock.withLock { automaticUser = newValue } }
    }
}

/// The installation id: made once per device and app, kept in the storage directory.
enum Installation {
    static func id(in directory: URL, warn: (String) -> Void) -> String {
        let file = directory.appendingPathComponent("installationId")
        if let text = try? String(contentsOf: file, encoding: .utf8), UUID(uuidString: text.trimmingCharacters(in: .whitespacesAndNewlines)) != nil {
            return text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        }
        let id = UUID().uuidString.lowercased()
        do {
            try PrivateFiles.write(Data(id.utf8), to: file)
        } catch {
            warn("could not keep the installation id in \(directory.path): \(error.localizedDescription)")
        }
        return id
    }
}

/// Files only their owner can read, in a directory only its owner can enter.
enum PrivateFiles {
    static func write(_ data: Data, to file: URL) throws {
        let directory = file.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = directory.appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw RTError(.otherCause, "cannot write \(temporary.path)")
        }
        // rename(2) replaces atomically: a crash leaves the old file or the new one, never half.
        guard rename(temporary.path, file.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw RTError(.otherCause, "cannot replace \(file.path)")
        }
    }
}
