import RooftopCore

/// A user's second factor as stored (`_second_factor`, JSON text so that a write can require the
/// exact text it read: two nodes spending one code can't both succeed).
struct SecondFactorState: Equatable, Sendable {
    /// The TOTP secret, sealed (`SecretSealing`).
    var secret: String
    /// The last time step a code was accepted for: a code of that step or an earlier one is
    /// refused (RFC 6238 §5.2: each code once).
    var step: Int64
    /// Digests of the unused recovery codes.
    var recovery: [String]
    /// Wrong codes since the last right one.
    var failures: Int
    /// While failures are at the limit: until when codes are refused (ms since 1970).
    var lockedUntil: Int64

    /// The state stored in `user`, if the user has a second factor.
    init?(of user: StoredObject) {
        guard case .string(let text)? = user.fields[InternalField.secondFactor.rawValue] else { return nil }
        self.init(text: text)
    }

    /// The state in `text`; nil when it is not one.
    init?(text: String) {
        guard case .object(let fields)? = try? JSONParser.parse(Array(text.utf8)), case .string(let secret)? = fields["secret"],
            let step = fields["step"]?.numberValue, case .array(let recovery)? = fields["recovery"]
        else { return nil }
        self.secret = secret
        self.step = Int64(step)
        self.recovery = recovery.compactMap(\.stringValue)
        self.failures = Int(fields["failures"]?.numberValue ?? 0)
        self.lockedUntil = Int64(fields["lockedUntil"]?.numberValue ?? 0)
    }

    /// A new state.
    init(secret: String, step: Int64, recovery: [String]) {
        self.secret = secret
        self.step = step
        self.recovery = recovery
        self.failures = 0
        self.lockedUntil = 0
    }

    /// The stored text (keys sorted, so equal states are equal text).
    var text: String {
        JSONWriter.string(
            .object([
                "secret": .string(secret), "step": .number(Double(step)), "recovery": .array(recovery.map(JSON.string)),
                "failures": .number(Double(failures)), "lockedUntil": .number(Double(lockedUntil)),
            ]), sortedKeys: true)
    }
}
