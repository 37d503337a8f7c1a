import RooftopCore
import RooftopStorage

extension Accounts {
    /// Whether `userId` signed up anonymously and never converted: `authData.anonymous` is its
    /// only provider and it has no password (Parse's `enableForAnonymousUser` applies to it).
    package func isAnonymousOnly(_ userId: String) async throws -> Bool {
        guard ObjectId.isPlausible(userId) else { return false }
        let query = QueryNode.field(FieldPath(field: .objectId), .equals(.string(userId)))
        guard let user = try await directory.find(.user, query, limit: 1).first else { return false }
        let providers = user.fields.keys.filter { $0.hasPrefix(FieldName.authIdPrefix) }
        return providers == [FieldName.authIdPrefix + "anonymous"] && user.fields[InternalField.hashedPassword.rawValue] == nil
    }

    /// The files `userId`'s own object refers to (File values anywhere in its fields).
    package func fileNames(ofUser userId: String) async throws -> Set<String> {
        guard ObjectId.isPlausible(userId) else { return [] }
        let query = QueryNode.field(FieldPath(field: .objectId), .equals(.string(userId)))
        guard let user = try await directory.find(.user, query, limit: 1).first else { return [] }
        var names: Set<String> = []
        FileReferences.collect(.object(user.fields), into: &names)
        return names
    }
}
