#if canImport(Security)
    import Foundation
    import Security

    /// The users in the Keychain: one generic-password item per user (account = its local id) and
    /// an index item (`"index"`: which users, in which order, and the active one). Items are
    /// readable after the first unlock and never leave the device.
    struct KeychainCredentialStore: CredentialStore {
        let service: String

        private struct Index: Codable {
            var applicationId: String
            var active: String?
            var order: [String]
        }

        func load() throws -> StoredUsers? {
            guard let indexData = try read("index") else { return nil }
            let index = try JSONDecoder().decode(Index.self, from: indexData)
            var users: [StoredUsers.User] = []
            for id in index.order {
                guard let data = try read("user." + id) else { continue }
                users.append(try JSONDecoder().decode(StoredUsers.User.self, from: data))
            }
            return StoredUsers(applicationId: index.applicationId, active: index.active, users: users)
        }

        func save(_ users: StoredUsers) throws {
            let previous = (try? read("index")).flatMap { try? JSONDecoder().decode(Index.self, from: $0) }
            for user in users.users { try write("user." + user.localId, try JSONEncoder().encode(user)) }
            let kept = Set(users.users.map(\.localId))
            for id in previous?.order ?? [] where !kept.contains(id) { delete("user." + id) }
            try write(
                "index", try JSONEncoder().encode(Index(applicationId: users.applicationId, active: users.active, order: users.users.map(\.localId))))
        }

        private func query(_ account: String) -> [String: Any] {
            [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecAttrAccount as String: account]
        }

        private func read(_ account: String) throws -> Data? {
            var request = query(account)
            request[kSecReturnData as String] = true
            request[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: AnyObject?
            let status = SecItemCopyMatching(request as CFDictionary, &result)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess, let data = result as? Data else { throw RTError(.otherCause, "Keychain read failed (\(status)).") }
            return data
        }

        private func write(_ account: String, _ data: Data) throws {
            let attributes: [String: Any] = [
                kSecValueData as String: data, kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ]
            var status = SecItemUpdate(query(account) as CFDictionary, attributes as CFDictionary)
            if status == errSecItemNotFound {
                status = SecItemAdd(query(account).merging(attributes) { $1 } as CFDictionary, nil)
            }
            guard status == errSecSuccess else { throw RTError(.otherCause, "Keychain write failed (\(status)).") }
        }

        private func delete(_ account: String) {
            SecItemDelete(query(account) as CFDictionary)
        }
    }
#endif
