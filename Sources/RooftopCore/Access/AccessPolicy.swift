/// Class-level access decisions, made without I/O.
///
/// The outcome is either "denied" (with Parse's error), "allowed", or "allowed only for objects
/// whose pointer fields reference the caller" — a restriction the store compiles into SQL.
public enum AccessPolicy {
    /// The outcome of a class-level check.
    public enum Decision: Sendable, Equatable {
        /// The caller may act on every object the ACLs allow.
        case allowed
        /// The caller may act only on objects whose listed pointer fields reference it.
        case restricted(to: [FieldName])
    }

    /// Checks `operation` on `className` for `principal`.
    ///
    /// - Throws: 119 "Permission denied…" for a CLP denial, or 101 when authentication is required.
    public static func check(
        _ operation: ClassLevelPermissions.Operation, on className: ClassName, clp: ClassLevelPermissions,
        principal: Principal
    ) throws(ParseError) -> Decision {
        if principal.isMaster { return .allowed }
        let rule = clp.rule(operation)
        if rule.entries.contains("*") { return .allowed }
        if principal.aclGroup.contains(where: rule.entries.contains) { return .allowed }
        if rule.requiresAuthentication {
            guard principal.isAuthenticated else {
                throw ParseError(.objectNotFound, "Permission denied, user needs to be authenticated.")
            }
            return .allowed
        }
        var fields = rule.pointerFields
        switch operation {
        case .find, .get, .count: fields += clp.readUserFields
        case .update, .delete, .addField: fields += clp.writeUserFields
        case .create: fields = []
        }
        // Without a user the restriction matches nothing: an empty find, a 101 get, as in Parse.
        if !fields.isEmpty { return .restricted(to: fields) }
        throw ParseError(.operationForbidden, "Permission denied for action \(operation.rawValue) on class \(className).")
    }

    /// Fields hidden from `principal` by `protectedFields`, except those that depend on a
    /// per-object pointer (`userField:`), which come back separately for the store to compile.
    ///
    /// The hidden set is the intersection of the sets of every audience that applies.
    public static func protectedFields(
        _ clp: ClassLevelPermissions, principal: Principal
    ) -> (hidden: Set<String>, byUserField: [String: Set<String>]) {
        if principal.isMaster { return ([], [:]) }
        var sets: [Set<String>] = []
        if let everyone = clp.protectedFields["*"] { sets.append(Set(everyone)) }
        if principal.isAuthenticated, let authed = clp.protectedFields["authenticated"] { sets.append(Set(authed)) }
        for entry in principal.aclGroup.dropFirst() {
            if let fields = clp.protectedFields[entry] { sets.append(Set(fields)) }
        }
        var hidden = sets.first ?? []
        for set in sets.dropFirst() { hidden.formIntersection(set) }
        var byUserField: [String: Set<String>] = [:]
        if principal.isAuthenticated {
            for (audience, fields) in clp.protectedFields where audience.hasPrefix("userField:") {
                // Where the caller is the referenced user, only these fields stay hidden.
                byUserField[String(audience.dropFirst(10))] = hidden.intersection(fields)
            }
        }
        return (hidden, byUserField)
    }
}
