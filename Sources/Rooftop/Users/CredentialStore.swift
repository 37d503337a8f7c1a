import Foundation

/// What is kept about the users signed in on this device.
struct StoredUsers: Codable, Sendable, Equatable {
    /// One user: the server's fields (as JSON text), the session token, and how it signed in.
    struct User: Codable, Sendable, Equatable {
        var localId: String
        var token: String?
        var anonymous: Bool
        var fields: String
    }

    var format = 1
    var applicationId: String
    var active: String?
    var users: [User]
}

/// Where `StoredUsers` live: a private file on Linux, the Keychain on Apple platforms.
protocol CredentialStore: Sendable {
    /// What was stored; nil when nothing was. Throws when something is there but unreadable.
    func load() throws -> StoredUsers?
    /// Replaces what is stored.
    func save(_ users: StoredUsers) throws
}

enum CredentialStores {
    /// The Keychain on Apple platforms unless a storage directory is configured; else a file.
    static func make(_ configuration: RTConfiguration, directory: URL) -> any CredentialStore {
        #if canImport(Security)
            if configuration.storageDirectory == nil {
                return KeychainCredentialStore(service: configuration.keychainService ?? "rooftop.\(configuration.applicationId)")
            }
        #endif
        return FileCredentialStore(file: directory.appendingPathComponent("users.json"))
    }
}

/// `users.json` of mode 0600 in a directory of mode 0700, replaced atomically on each change.
struct FileCredentialStore: CredentialStore {
    let file: URL

    func load() throws -> StoredUsers? {
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let data = try Data(contentsOf: file)
        return try JSONDecoder().decode(StoredUsers.self, from: data)
    }

    func save(_ users: StoredUsers) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try PrivateFiles.write(try encoder.encode(users), to: file)
    }
}
