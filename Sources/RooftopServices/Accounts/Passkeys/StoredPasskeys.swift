import RooftopCore

/// One registered passkey as stored: what signs the user in (its id and COSE public key) and what
/// the user sees of it.
struct StoredPasskey: Equatable, Sendable {
    /// The credential id, base64url.
    var id: String
    /// The COSE public key, base64url.
    var publicKey: String
    /// The COSE algorithm (-7, -8, -257).
    var algorithm: Int
    /// The user's label for it.
    var name: String
    /// When it was registered (ms since 1970).
    var createdAt: Int64
    /// When it last signed in (ms since 1970).
    var lastUsedAt: Int64?
    /// The highest signature counter seen (0 for authenticators that keep none: synced passkeys).
    var signCount: UInt32
    /// The BE flag at registration: it may be synced.
    var backupEligible: Bool
    /// The BS flag at its last use: it is backed up.
    var backedUp: Bool
    /// The transports the client reported (hints for the next sign-in's allow-list).
    var transports: [String]
    /// Times its counter went backwards (a possible clone): audited, and shown to the user.
    var counterRegressions: Int

    init?(_ json: JSON) {
        guard case .object(let fields) = json, let id = fields["id"]?.stringValue, let key = fields["key"]?.stringValue,
            let algorithm = fields["alg"]?.numberValue, let name = fields["name"]?.stringValue,
            let createdAt = fields["createdAt"]?.numberValue
        else { return nil }
        self.id = id
        self.publicKey = key
        self.algorithm = Int(algorithm)
        self.name = name
        self.createdAt = Int64(createdAt)
        self.lastUsedAt = fields["lastUsedAt"]?.numberValue.map { Int64($0) }
        self.signCount = UInt32(clamping: Int64(fields["signCount"]?.numberValue ?? 0))
        self.backupEligible = fields["be"] == .bool(true)
        self.backedUp = fields["bs"] == .bool(true)
        self.transports = fields["transports"]?.arrayValue?.compactMap(\.stringValue) ?? []
        self.counterRegressions = Int(fields["regressions"]?.numberValue ?? 0)
    }

    init(_ new: NewPasskey, name: String, transports: [String], at now: Int64) {
        id = Base64URL.encode(new.credentialId)
        publicKey = Base64URL.encode(new.publicKey)
        algorithm = new.algorithm
        self.name = name
        createdAt = now
        lastUsedAt = nil
        signCount = new.signCount
        backupEligible = new.backupEligible
        backedUp = new.backedUp
        self.transports = transports
        counterRegressions = 0
    }

    /// The stored form.
    var json: JSON {
        var fields: [String: JSON] = [
            "id": .string(id), "key": .string(publicKey), "alg": .number(Double(algorithm)), "name": .string(name),
            "createdAt": .number(Double(createdAt)), "signCount": .number(Double(signCount)), "be": .bool(backupEligible),
            "bs": .bool(backedUp), "transports": .array(transports.map(JSON.string)),
        ]
        if let lastUsedAt { fields["lastUsedAt"] = .number(Double(lastUsedAt)) }
        if counterRegressions > 0 { fields["regressions"] = .number(Double(counterRegressions)) }
        return .object(fields)
    }

    /// What the user and the console see of it (never the key).
    var answer: [String: JSON] {
        [
            "id": .string(id), "name": .string(name), "createdAt": .string(ParseDate(millisecondsSince1970: createdAt).iso),
            "lastUsedAt": lastUsedAt.map { .string(ParseDate(millisecondsSince1970: $0).iso) } ?? .null,
            "backupEligible": .bool(backupEligible), "backedUp": .bool(backedUp), "counterWentBack": .bool(counterRegressions > 0),
        ]
    }
}

/// A user's passkeys as stored (`_passkeys`, JSON text, so that a write can require the exact
/// text it read: a registration, a rename and a sign-in's counter update never overwrite each
/// other).
struct StoredPasskeys: Equatable, Sendable {
    /// The passkeys, oldest first.
    var items: [StoredPasskey]

    /// The passkeys stored in `user`, and the text they were read from (nil: the field is absent).
    static func of(_ user: StoredObject) -> (passkeys: StoredPasskeys, text: String?) {
        guard case .string(let text)? = user.fields[InternalField.passkeys.rawValue] else { return (StoredPasskeys(items: []), nil) }
        guard case .array(let items)? = try? JSONParser.parse(Array(text.utf8)) else { return (StoredPasskeys(items: []), text) }
        return (StoredPasskeys(items: items.compactMap(StoredPasskey.init)), text)
    }

    /// The stored text (keys sorted, so equal lists are equal text).
    var text: String { JSONWriter.string(.array(items.map(\.json)), sortedKeys: true) }

    /// The index of the passkey whose id is `id`.
    func index(of id: String) -> Int? { items.firstIndex { $0.id == id } }

    /// A name for a new passkey: `Passkey`, `Passkey 2`, … (the first not taken).
    func defaultName() -> String {
        let taken = Set(items.map(\.name))
        var number = 1
        while taken.contains(number == 1 ? "Passkey" : "Passkey \(number)") { number += 1 }
        return number == 1 ? "Passkey" : "Passkey \(number)"
    }
}
