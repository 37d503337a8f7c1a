/// The rules a `_Role` write must follow, checked before it reaches the store.
///
/// A role's name is what `role:<name>` ACL entries grant to, so it is set once and limited to
/// the characters the SDKs allow; renaming would silently move every grant.
public enum RoleRules {
    /// Checks a create or update body for `_Role`.
    public static func validate(_ write: ObjectWrite, isCreate: Bool) throws(ParseError) {
        let nameOp = write.operations.first { $0.path.field.rawValue == "name" }
        if isCreate {
            guard let nameOp, nameOp.path.subkeys.isEmpty, case .set(let value) = nameOp.op else {
                throw ParseError(.incorrectType, "name is required.")
            }
            guard case .string(let name) = value else { throw ParseError(.invalidRoleName, "A role's name must be a String.") }
            guard isValidName(name) else {
                throw ParseError(.invalidRoleName, "A role's name can be only contain alphanumeric characters, _, -, and spaces.")
            }
            guard write.acl != nil else { throw ParseError(.incorrectType, "ACL is required.") }
        } else {
            if nameOp != nil { throw ParseError(.invalidRoleName, "A role's name can only be set before it has been saved.") }
            if write.clearsACL { throw ParseError(.incorrectType, "ACL is required.") }
        }
        for (path, op) in write.operations where ["users", "roles"].contains(path.field.rawValue) {
            switch op {
            case .relation: continue
            default: throw ParseError(.incorrectType, "\(path.field) is a relation: use AddRelation or RemoveRelation.")
            }
        }
    }

    /// Alphanumerics, `_`, `-` and spaces, 1 to 128 characters.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 128
            && name.unicodeScalars.allSatisfy { s in
                (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9") || s == "_" || s == "-" || s == " "
            }
    }
}
