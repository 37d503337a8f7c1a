import RooftopCore
import Testing

/// Who may do what: class-level permissions (CLP), ACLs, roles, pointer permissions and
/// protected fields, decided without I/O. Every row is one rule; breaking the rule breaks the row.
@Suite struct AccessPolicyTests {
    // MARK: Callers

    static let master = Principal.master
    static let anonymous = Principal.anonymous
    static let alice = Principal.user("alice")
    static let bob = Principal.user("bob")
    static let aliceAdmin = Principal.user("alice", roles: ["Admins"])
    static let bobStaff = Principal.user("bob", roles: ["Staff", "Admin"])

    /// The expected class-level decision.
    enum Outcome: Equatable, CustomStringConvertible {
        case allowed
        case restricted([String])
        /// 119 "Permission denied for action …".
        case forbidden
        /// 101 "Permission denied, user needs to be authenticated."
        case needsAuthentication

        var description: String {
            switch self {
            case .allowed: "allowed"
            case .restricted(let fields): "restricted to \(fields)"
            case .forbidden: "119"
            case .needsAuthentication: "101"
            }
        }
    }

    struct CLPCase: CustomTestStringConvertible, Sendable {
        let rule: String
        let clp: String
        let operation: ClassLevelPermissions.Operation
        let principal: Principal
        let expected: Outcome
        var testDescription: String { rule }
    }

    static let className = try! ClassName("Note")

    static func outcome(_ op: ClassLevelPermissions.Operation, _ clp: ClassLevelPermissions, _ principal: Principal) -> Outcome {
        do {
            switch try AccessPolicy.check(op, on: className, clp: clp, principal: principal) {
            case .allowed: return .allowed
            case .restricted(let fields): return .restricted(fields.map(\.rawValue))
            }
        } catch {
            switch error.code {
            case .operationForbidden: return .forbidden
            case .objectNotFound: return .needsAuthentication
            default: return .restricted(["unexpected error \(error)"])
            }
        }
    }

    // MARK: Class-level permissions

    static let clpCases: [CLPCase] = [
        // A class without CLP rules is public, as in Parse.
        .init(rule: "no rule: anonymous may find", clp: "{}", operation: .find, principal: anonymous, expected: .allowed),
        .init(rule: "no rule: anonymous may delete", clp: "{}", operation: .delete, principal: anonymous, expected: .allowed),
        .init(rule: "no rule: anonymous may addField", clp: "{}", operation: .addField, principal: anonymous, expected: .allowed),
        .init(rule: "public entry: anonymous may get", clp: #"{"get":{"*":true}}"#, operation: .get, principal: anonymous, expected: .allowed),
        .init(
            rule: "public entry false grants nothing", clp: #"{"get":{"*":false}}"#, operation: .get, principal: alice,
            expected: .forbidden),
        // An empty rule closes the operation to everyone but the master key.
        .init(rule: "empty rule: anonymous may not find", clp: #"{"find":{}}"#, operation: .find, principal: anonymous, expected: .forbidden),
        .init(rule: "empty rule: a user may not find", clp: #"{"find":{}}"#, operation: .find, principal: alice, expected: .forbidden),
        .init(rule: "empty rule: a role may not create", clp: #"{"create":{}}"#, operation: .create, principal: aliceAdmin, expected: .forbidden),
        .init(rule: "empty rule: master may find", clp: #"{"find":{}}"#, operation: .find, principal: master, expected: .allowed),
        .init(rule: "empty rule: master may addField", clp: #"{"addField":{}}"#, operation: .addField, principal: master, expected: .allowed),
        // Rules are per operation.
        .init(rule: "closing find leaves get open", clp: #"{"find":{}}"#, operation: .get, principal: anonymous, expected: .allowed),
        .init(rule: "closing find leaves count open", clp: #"{"find":{}}"#, operation: .count, principal: anonymous, expected: .allowed),
        .init(rule: "closing update leaves delete open", clp: #"{"update":{}}"#, operation: .delete, principal: alice, expected: .allowed),
        // Roles.
        .init(
            rule: "role entry: a member may find", clp: #"{"find":{"role:Admins":true}}"#, operation: .find, principal: aliceAdmin,
            expected: .allowed),
        .init(
            rule: "role entry: a non-member may not find", clp: #"{"find":{"role:Admins":true}}"#, operation: .find, principal: alice,
            expected: .forbidden),
        .init(
            rule: "role entry: a similar role name is no match", clp: #"{"find":{"role:Admins":true}}"#, operation: .find,
            principal: bobStaff, expected: .forbidden),
        .init(
            rule: "role entry: anonymous may not find", clp: #"{"find":{"role:Admins":true}}"#, operation: .find, principal: anonymous,
            expected: .forbidden),
        .init(
            rule: "role entry: a bare role name is not a role entry", clp: #"{"delete":{"Admins":true}}"#, operation: .delete,
            principal: aliceAdmin, expected: .forbidden),
        .init(
            rule: "role entry: any of several roles", clp: #"{"update":{"role:Staff":true}}"#, operation: .update, principal: bobStaff,
            expected: .allowed),
        // User ids.
        .init(rule: "user entry: that user may get", clp: #"{"get":{"alice":true}}"#, operation: .get, principal: alice, expected: .allowed),
        .init(rule: "user entry: another user may not get", clp: #"{"get":{"alice":true}}"#, operation: .get, principal: bob, expected: .forbidden),
        // requiresAuthentication.
        .init(
            rule: "requiresAuthentication: anonymous gets 101", clp: #"{"create":{"requiresAuthentication":true}}"#, operation: .create,
            principal: anonymous, expected: .needsAuthentication),
        .init(
            rule: "requiresAuthentication: any user may", clp: #"{"create":{"requiresAuthentication":true}}"#, operation: .create,
            principal: bob, expected: .allowed),
        .init(
            rule: "requiresAuthentication: master may", clp: #"{"find":{"requiresAuthentication":true}}"#, operation: .find,
            principal: master, expected: .allowed),
        .init(
            rule: "requiresAuthentication false is no grant", clp: #"{"find":{"requiresAuthentication":false}}"#, operation: .find,
            principal: alice, expected: .forbidden),
        .init(
            rule: "public entry wins over requiresAuthentication", clp: #"{"find":{"*":true,"requiresAuthentication":true}}"#,
            operation: .find, principal: anonymous, expected: .allowed),
        // Pointer permissions: pointerFields on the operation, readUserFields, writeUserFields.
        .init(
            rule: "pointerFields: a user is restricted to objects pointing at them", clp: #"{"update":{"pointerFields":["owner"]}}"#,
            operation: .update, principal: alice, expected: .restricted(["owner"])),
        .init(
            rule: "pointerFields: anonymous is restricted too (matches nothing)", clp: #"{"get":{"pointerFields":["owner"]}}"#,
            operation: .get, principal: anonymous, expected: .restricted(["owner"])),
        .init(
            rule: "pointerFields: a listed role is not restricted", clp: #"{"get":{"pointerFields":["owner"],"role:Admins":true}}"#,
            operation: .get, principal: aliceAdmin, expected: .allowed),
        .init(
            rule: "pointerFields: master is not restricted", clp: #"{"delete":{"pointerFields":["owner"]}}"#, operation: .delete,
            principal: master, expected: .allowed),
        .init(
            rule: "readUserFields restrict find", clp: #"{"find":{},"readUserFields":["owner"]}"#, operation: .find, principal: alice,
            expected: .restricted(["owner"])),
        .init(
            rule: "readUserFields restrict get", clp: #"{"get":{},"readUserFields":["owner"]}"#, operation: .get, principal: alice,
            expected: .restricted(["owner"])),
        .init(
            rule: "readUserFields restrict count", clp: #"{"count":{},"readUserFields":["owner"]}"#, operation: .count, principal: alice,
            expected: .restricted(["owner"])),
        .init(
            rule: "readUserFields grant no update", clp: #"{"update":{},"readUserFields":["owner"]}"#, operation: .update,
            principal: alice, expected: .forbidden),
        .init(
            rule: "writeUserFields restrict update", clp: #"{"update":{},"writeUserFields":["editor"]}"#, operation: .update,
            principal: alice, expected: .restricted(["editor"])),
        .init(
            rule: "writeUserFields restrict delete", clp: #"{"delete":{},"writeUserFields":["editor"]}"#, operation: .delete,
            principal: alice, expected: .restricted(["editor"])),
        .init(
            rule: "writeUserFields restrict addField", clp: #"{"addField":{},"writeUserFields":["editor"]}"#, operation: .addField,
            principal: alice, expected: .restricted(["editor"])),
        .init(
            rule: "writeUserFields grant no find", clp: #"{"find":{},"writeUserFields":["editor"]}"#, operation: .find, principal: alice,
            expected: .forbidden),
        .init(
            rule: "pointer permissions never grant create", clp: #"{"create":{"pointerFields":["owner"]},"writeUserFields":["owner"]}"#,
            operation: .create, principal: alice, expected: .forbidden),
        .init(
            rule: "pointerFields and readUserFields combine, in order", clp: #"{"find":{"pointerFields":["a"]},"readUserFields":["b"]}"#,
            operation: .find, principal: bob, expected: .restricted(["a", "b"])),
        .init(
            rule: "readUserFields only apply when the rule denies", clp: #"{"readUserFields":["owner"]}"#, operation: .find,
            principal: alice, expected: .allowed),
        .init(
            rule: "requiresAuthentication wins over pointer permissions",
            clp: #"{"find":{"requiresAuthentication":true},"readUserFields":["owner"]}"#,
            operation: .find, principal: alice, expected: .allowed),
    ]

    @Test(arguments: clpCases)
    func classLevelPermissions(_ row: CLPCase) throws {
        let clp = try ClassLevelPermissions(json: JSONParser.parse(row.clp))
        #expect(Self.outcome(row.operation, clp, row.principal) == row.expected, "\(row.rule)")
    }

    /// The `/schemas` form read back gives the same decision (it is how schemas are stored).
    @Test(arguments: clpCases)
    func decisionsSurviveTheStoredForm(_ row: CLPCase) throws {
        let clp = try ClassLevelPermissions(json: JSONParser.parse(row.clp))
        let stored = try ClassLevelPermissions(json: JSONParser.parse(JSONWriter.string(clp.json)))
        #expect(Self.outcome(row.operation, stored, row.principal) == row.expected, "\(row.rule)")
    }

    @Test func errorsCarryParseMessages() {
        let closed = ClassLevelPermissions(rules: [.find: .init()])
        #expect(throws: ParseError(.operationForbidden, "Permission denied for action find on class Note.")) {
            try AccessPolicy.check(.find, on: Self.className, clp: closed, principal: Self.alice)
        }
        let authOnly = ClassLevelPermissions(rules: [.get: .init(requiresAuthentication: true)])
        #expect(throws: ParseError(.objectNotFound, "Permission denied, user needs to be authenticated.")) {
            try AccessPolicy.check(.get, on: Self.className, clp: authOnly, principal: Self.anonymous)
        }
    }

    // MARK: Malformed CLPs

    static let badCLPs: [(String, Int)] = [
        (#"{"destroy":{}}"#, 107),  // unknown operation
        (#"{"find":true}"#, 107),  // rule is not an object
        (#"{"find":{"bad key!":true}}"#, 107),  // entry is neither *, role: nor a user id
        (#"{"find":{"role:":true}}"#, 107),  // empty role name
        (#"{"find":{"*":"yes"}}"#, 107),  // flag is not a boolean
        (#"{"find":{"requiresAuthentication":1}}"#, 107),
        (#"{"find":{"pointerFields":"owner"}}"#, 107),  // not an array
        (#"{"find":{"pointerFields":["_hashed_password"]}}"#, 105),  // internal field
        (#"{"readUserFields":["a.b"]}"#, 105),
        (#"{"writeUserFields":[1]}"#, 107),
        (#"{"protectedFields":{"*":["_session_token"]}}"#, 107),
        (#"{"protectedFields":{"userField:a.b":[]}}"#, 107),
        (#"{"protectedFields":{"some one":["email"]}}"#, 107),  // not an audience
        (#"{"protectedFields":{"*":"email"}}"#, 107),
    ]

    @Test(arguments: badCLPs)
    func malformedCLPsAreRefused(_ json: String, _ code: Int) throws {
        let value = try JSONParser.parse(json)
        #expect { try ClassLevelPermissions(json: value) } throws: { ($0 as? ParseError)?.code.rawValue == code }
    }

    // MARK: ACLs

    @Test func aclGroupIsPublicThenUserThenRoles() {
        #expect(Self.anonymous.aclGroup == ["*"])
        #expect(Self.master.aclGroup == ["*"])
        #expect(Self.alice.aclGroup == ["*", "alice"])
        #expect(Self.bobStaff.aclGroup == ["*", "bob", "role:Staff", "role:Admin"])
        #expect(!Self.anonymous.isAuthenticated && !Self.master.isAuthenticated && Self.alice.isAuthenticated)
    }

    struct ACLCase: CustomTestStringConvertible, Sendable {
        let rule: String
        let acl: String
        let principal: Principal
        let read: Bool
        let write: Bool
        var testDescription: String { rule }
    }

    /// The store's rule (`_rperm`/`_wperm` intersect the caller's ACL group), over parsed ACLs.
    static func may(_ entries: Set<String>, _ principal: Principal) -> Bool {
        principal.isMaster || !entries.isDisjoint(with: principal.aclGroup)
    }

    static let aclCases: [ACLCase] = [
        .init(rule: "public read: anyone reads, nobody writes", acl: #"{"*":{"read":true}}"#, principal: anonymous, read: true, write: false),
        .init(rule: "public read+write", acl: #"{"*":{"read":true,"write":true}}"#, principal: anonymous, read: true, write: true),
        .init(rule: "owner only: owner reads and writes", acl: #"{"alice":{"read":true,"write":true}}"#, principal: alice, read: true, write: true),
        .init(rule: "owner only: another user neither", acl: #"{"alice":{"read":true,"write":true}}"#, principal: bob, read: false, write: false),
        .init(rule: "owner only: anonymous neither", acl: #"{"alice":{"read":true,"write":true}}"#, principal: anonymous, read: false, write: false),
        .init(rule: "empty ACL: only master", acl: "{}", principal: alice, read: false, write: false),
        .init(rule: "empty ACL: master reads and writes", acl: "{}", principal: master, read: true, write: true),
        .init(rule: "read false is no read", acl: #"{"alice":{"read":false,"write":true}}"#, principal: alice, read: false, write: true),
        .init(rule: "role read: member reads", acl: #"{"role:Admins":{"read":true}}"#, principal: aliceAdmin, read: true, write: false),
        .init(rule: "role read: non-member does not", acl: #"{"role:Admins":{"read":true}}"#, principal: alice, read: false, write: false),
        .init(
            rule: "role write: member of one of several roles", acl: #"{"role:Staff":{"write":true}}"#, principal: bobStaff, read: false, write: true),
        .init(rule: "user id is not a role name", acl: #"{"role:alice":{"read":true}}"#, principal: alice, read: false, write: false),
        .init(rule: "role name is not a user id", acl: #"{"Admins":{"read":true}}"#, principal: aliceAdmin, read: false, write: false),
    ]

    @Test(arguments: aclCases)
    func aclDecisions(_ row: ACLCase) throws {
        let acl = try ACL(json: JSONParser.parse(row.acl))
        #expect(Self.may(acl.readers, row.principal) == row.read, "\(row.rule): read")
        #expect(Self.may(acl.writers, row.principal) == row.write, "\(row.rule): write")
        // The wire form reads back as the same ACL.
        #expect(try ACL(json: acl.json) == acl)
    }

    static let badACLs: [String] = [
        #"{"*":{"read":"true"}}"#, #"{"*":{"delete":true}}"#, #"{"*":true}"#, #"["*"]"#, #"{"role:":{"read":true}}"#,
        #"{"a b":{"read":true}}"#, #"{"x';DROP TABLE t;--":{"read":true}}"#, "{\"a\\u0000b\":{\"read\":true}}",
        "{\"role:\(String(repeating: "r", count: 129))\":{\"read\":true}}", "{\"\(String(repeating: "u", count: 65))\":{\"read\":true}}",
    ]

    @Test(arguments: badACLs)
    func malformedACLsAre123(_ json: String) throws {
        let value = try JSONParser.parse(json)
        #expect(throws: ParseError(.invalidACL, "Invalid ACL.")) { try ACL(json: value) }
    }

    @Test func aclEntryLimits() {
        #expect(ACL.isValidEntry("role:" + String(repeating: "r", count: 128)))
        #expect(!ACL.isValidEntry("role:" + String(repeating: "r", count: 129)))
        #expect(ACL.isValidEntry(String(repeating: "u", count: 64)))
        #expect(!ACL.isValidEntry(String(repeating: "u", count: 65)))
        #expect(ACL.isValidEntry("*") && !ACL.isValidEntry("**") && !ACL.isValidEntry(""))
    }

    // MARK: Protected fields

    struct ProtectedCase: CustomTestStringConvertible, Sendable {
        let rule: String
        let protected: [String: [String]]
        let principal: Principal
        let hidden: Set<String>
        let byUserField: [String: Set<String>]
        var testDescription: String { rule }
    }

    static let protectedCases: [ProtectedCase] = [
        .init(
            rule: "*: hidden from anonymous", protected: ["*": ["email", "phone"]], principal: anonymous, hidden: ["email", "phone"], byUserField: [:]
        ),
        .init(rule: "*: hidden from users", protected: ["*": ["email", "phone"]], principal: alice, hidden: ["email", "phone"], byUserField: [:]),
        .init(rule: "*: not hidden from master", protected: ["*": ["email", "phone"]], principal: master, hidden: [], byUserField: [:]),
        .init(
            rule: "authenticated narrows * for users", protected: ["*": ["email", "phone"], "authenticated": ["email"]], principal: alice,
            hidden: ["email"], byUserField: [:]),
        .init(
            rule: "authenticated does not narrow * for anonymous", protected: ["*": ["email", "phone"], "authenticated": ["email"]],
            principal: anonymous, hidden: ["email", "phone"], byUserField: [:]),
        .init(
            rule: "authenticated alone hides from users", protected: ["authenticated": ["secret"]], principal: alice, hidden: ["secret"],
            byUserField: [:]),
        .init(
            rule: "authenticated alone hides nothing from anonymous", protected: ["authenticated": ["secret"]], principal: anonymous, hidden: [],
            byUserField: [:]),
        .init(
            rule: "a role's empty list exempts members", protected: ["*": ["email"], "role:Admins": []], principal: aliceAdmin, hidden: [],
            byUserField: [:]),
        .init(
            rule: "a role's list does not exempt others", protected: ["*": ["email"], "role:Admins": []], principal: alice, hidden: ["email"],
            byUserField: [:]),
        .init(
            rule: "a user id's empty list exempts that user", protected: ["*": ["email"], "alice": []], principal: alice, hidden: [], byUserField: [:]
        ),
        .init(
            rule: "a user id's list does not exempt others", protected: ["*": ["email"], "alice": []], principal: bob, hidden: ["email"],
            byUserField: [:]),
        .init(
            rule: "a role-only audience hides from members", protected: ["role:Staff": ["salary"]], principal: bobStaff, hidden: ["salary"],
            byUserField: [:]),
        .init(
            rule: "a role-only audience hides nothing from others", protected: ["role:Staff": ["salary"]], principal: alice, hidden: [],
            byUserField: [:]),
        .init(
            rule: "several audiences intersect", protected: ["*": ["a", "b", "c"], "role:Staff": ["a", "b"], "role:Admin": ["b", "c"]],
            principal: bobStaff, hidden: ["b"], byUserField: [:]),
        .init(
            rule: "userField: the referenced user sees all but the listed fields",
            protected: ["*": ["email", "phone"], "userField:owner": ["phone"]],
            principal: alice, hidden: ["email", "phone"], byUserField: ["owner": ["phone"]]),
        .init(
            rule: "userField: cannot reveal what * does not hide", protected: ["*": ["email"], "userField:owner": ["email", "phone"]],
            principal: alice, hidden: ["email"], byUserField: ["owner": ["email"]]),
        .init(
            rule: "userField: nothing for anonymous", protected: ["*": ["email"], "userField:owner": []], principal: anonymous, hidden: ["email"],
            byUserField: [:]),
        .init(
            rule: "userField: nothing for master", protected: ["*": ["email"], "userField:owner": []], principal: master, hidden: [], byUserField: [:]
        ),
    ]

    @Test(arguments: protectedCases)
    func protectedFields(_ row: ProtectedCase) {
        let clp = ClassLevelPermissions(protectedFields: row.protected)
        let (hidden, byUserField) = AccessPolicy.protectedFields(clp, principal: row.principal)
        #expect(hidden == row.hidden, "\(row.rule)")
        #expect(byUserField == row.byUserField, "\(row.rule)")
    }

    /// Protected fields survive the `/schemas` form the schema is stored in.
    @Test(arguments: protectedCases)
    func protectedFieldsSurviveTheStoredForm(_ row: ProtectedCase) throws {
        let clp = ClassLevelPermissions(protectedFields: row.protected)
        let stored = try ClassLevelPermissions(json: JSONParser.parse(JSONWriter.string(clp.json)))
        let (hidden, byUserField) = AccessPolicy.protectedFields(stored, principal: row.principal)
        #expect(hidden == row.hidden, "\(row.rule)")
        #expect(byUserField == row.byUserField, "\(row.rule)")
    }
}
