import RooftopConsole
import RooftopCore
import RooftopTesting
import Testing

/// The "in words" view of class-level permissions, without a server: each kind of CLP reads as
/// the server enforces it, in English and Japanese, and the reading agrees with `AccessPolicy`.
@Suite struct ConsoleSchemaWordsTests {
    typealias Rule = ClassLevelPermissions.Rule

    static func field(_ name: String) -> FieldName {
        (try? FieldName(name)) ?? FieldName.objectId
    }

    static func all(_ rule: Rule) -> [ClassLevelPermissions.Operation: Rule] {
        Dictionary(uniqueKeysWithValues: ClassLevelPermissions.Operation.allCases.map { ($0, rule) })
    }

    @Test func defaultIsPublicEverything() {
        #expect(
            PermissionSentences.sentences(.open, language: "en") == ["Anyone can read (get, find, count), create, update, delete and add fields."])
        #expect(PermissionSentences.sentences(.open, language: "ja") == ["誰でも読み取り（get・find・count）・作成・更新・削除・フィールドの追加ができます。"])
    }

    @Test func lockedIsMasterOnly() {
        let clp = ClassLevelPermissions(rules: Self.all(Rule()))
        #expect(
            PermissionSentences.sentences(clp, language: "en") == [
                "Only the master key can read (get, find, count), create, update, delete and add fields."
            ])
        #expect(
            PermissionSentences.sentences(clp, language: "ja") == ["読み取り（get・find・count）・作成・更新・削除・フィールドの追加ができるのはマスターキーだけです。"])
    }

    @Test func requiresAuthentication() {
        var rules = Self.all(.everyone)
        for operation in [ClassLevelPermissions.Operation.create, .update, .delete] { rules[operation] = Rule(requiresAuthentication: true) }
        rules[.addField] = Rule()
        // A rule with `*` is public even when it also requires authentication, as AccessPolicy decides.
        rules[.count] = Rule(entries: ["*"], requiresAuthentication: true)
        let clp = ClassLevelPermissions(rules: rules)
        #expect(
            PermissionSentences.sentences(clp, language: "en") == [
                "Anyone can read (get, find, count).", "Signed-in users can create, update and delete.", "Only the master key can add fields.",
            ])
        #expect(
            PermissionSentences.sentences(clp, language: "ja") == [
                "誰でも読み取り（get・find・count）ができます。", "サインインしたユーザーは作成・更新・削除ができます。", "フィールドの追加ができるのはマスターキーだけです。",
            ])
    }

    @Test func roleOnly() {
        var rules = Self.all(Rule(entries: ["role:Admin", "role:Editor"]))
        rules[.get] = Rule(entries: ["role:Admin", "role:Editor", "k3Xr9TqL2p"])
        let clp = ClassLevelPermissions(rules: rules)
        #expect(
            PermissionSentences.sentences(clp, language: "en") == [
                "Only members of role `Admin`, members of role `Editor` and user `k3Xr9TqL2p` can get objects by id.",
                "Only members of role `Admin` and members of role `Editor` can query (find), count, create, update, delete and add fields.",
            ])
        #expect(
            PermissionSentences.sentences(clp, language: "ja").first
                == "IDでの取得ができるのはロール `Admin` のメンバー・ロール `Editor` のメンバー・ユーザー `k3Xr9TqL2p`だけです。")
    }

    @Test func pointerPermissions() {
        var rules = Self.all(Rule())
        rules[.create] = Rule(pointerFields: [Self.field("owner")])  // no object to point to yet: ignored
        rules[.addField] = Rule(pointerFields: [Self.field("editor")])
        let clp = ClassLevelPermissions(rules: rules, readUserFields: [Self.field("owner")], writeUserFields: [Self.field("owner")])
        #expect(
            PermissionSentences.sentences(clp, language: "en") == [
                "Only the user in `owner` can read (get, find, count), update and delete.", "Only the master key can create.",
                "Only the user in `editor` and the user in `owner` can add fields.",
            ])
        // readUserFields never grant writes, writeUserFields never grant reads.
        let readOnly = ClassLevelPermissions(rules: Self.all(Rule()), readUserFields: [Self.field("owner")])
        #expect(
            PermissionSentences.sentences(readOnly, language: "en") == [
                "Only the user in `owner` can read (get, find, count).", "Only the master key can create, update, delete and add fields.",
            ])
        #expect(
            PermissionSentences.sentences(readOnly, language: "ja") == [
                "読み取り（get・find・count）ができるのは`owner` のユーザーだけです。", "作成・更新・削除・フィールドの追加ができるのはマスターキーだけです。",
            ])
    }

    @Test func protectedFields() {
        func words(_ lists: [String: [String]], _ language: String = "en") -> [String] {
            Array(PermissionSentences.sentences(ClassLevelPermissions(protectedFields: lists), language: language).dropFirst())
        }
        #expect(words(["*": ["pin"]]) == ["`pin` is hidden from everyone; only the master key can read it."])
        #expect(
            words(["*": ["email", "secret"], "role:Staff": ["secret"], "userField:owner": []]) == [
                "`email` is hidden from everyone but members of role `Staff` and the user in `owner`.",
                "`secret` is hidden from everyone but the user in `owner`.",
            ])
        #expect(words(["*": ["phone"], "authenticated": []]) == ["`phone` is hidden from visitors who are not signed in."])
        #expect(words(["*": [], "role:Guest": ["notes"]]).isEmpty, "the public list applies to everyone: nothing is hidden")
        #expect(
            words(["authenticated": ["notes"], "role:Staff": []]) == [
                "`notes` is hidden from signed-in users except members of role `Staff`, but visitors who are not signed in can read it."
            ])
        #expect(
            words(["role:Guest": ["notes"], "role:Staff": []]) == [
                "`notes` is hidden from members of role `Guest` (unless they are also members of role `Staff`)."
            ])
        #expect(words(["userField:owner": ["notes"]]).isEmpty, "a userField list only shows fields again")
        #expect(words(["*": ["email"], "userField:owner": []], "ja") == ["`email` は`owner` のユーザー以外には非表示です。"])
        #expect(words(["*": ["phone"], "authenticated": []], "ja") == ["`phone` はサインインしていない訪問者には非表示です。"])
    }

    @Test func mixed() {
        var rules = Self.all(.everyone)
        rules[.create] = Rule(requiresAuthentication: true)
        rules[.update] = Rule(pointerFields: [Self.field("owner")])
        rules[.delete] = Rule(pointerFields: [Self.field("owner")])
        rules[.addField] = Rule(entries: ["role:Admin"])
        let clp = ClassLevelPermissions(rules: rules, protectedFields: ["*": ["email"], "userField:owner": []])
        #expect(
            PermissionSentences.sentences(clp, language: "en") == [
                "Anyone can read (get, find, count).", "Signed-in users can create.", "Only the user in `owner` can update and delete.",
                "Only members of role `Admin` can add fields.", "`email` is hidden from everyone but the user in `owner`.",
            ])
        #expect(
            PermissionSentences.sentences(clp, language: "ja") == [
                "誰でも読み取り（get・find・count）ができます。", "サインインしたユーザーは作成ができます。", "更新・削除ができるのは`owner` のユーザーだけです。",
                "フィールドの追加ができるのはロール `Admin` のメンバーだけです。", "`email` は`owner` のユーザー以外には非表示です。",
            ])
    }

    /// What the words say of each operation is what `AccessPolicy.check` decides for an
    /// anonymous caller, a signed-in user without roles, and a member of role Admin.
    @Test func agreesWithAccessPolicy() throws {
        let owner = Self.field("owner")
        let samples: [ClassLevelPermissions] = [
            .open, ClassLevelPermissions(rules: Self.all(Rule())),
            ClassLevelPermissions(rules: Self.all(Rule(requiresAuthentication: true))),
            ClassLevelPermissions(rules: Self.all(Rule(entries: ["role:Admin"]))),
            ClassLevelPermissions(rules: Self.all(Rule(pointerFields: [owner]))),
            ClassLevelPermissions(rules: Self.all(Rule()), readUserFields: [owner], writeUserFields: [owner]),
            ClassLevelPermissions(rules: [.find: Rule(entries: ["*"], requiresAuthentication: true)]),
        ]
        let className = try ClassName("Game")
        for clp in samples {
            for operation in ClassLevelPermissions.Operation.allCases {
                func decision(_ principal: Principal) -> String {
                    do {
                        switch try AccessPolicy.check(operation, on: className, clp: clp, principal: principal) {
                        case .allowed: return "allowed"
                        case .restricted: return "restricted"
                        }
                    } catch { return "denied" }
                }
                let seen = [decision(.anonymous), decision(.user("u1")), decision(.user("u2", roles: ["Admin"]))]
                let expected: [String]
                switch PermissionSentences.who(operation, clp) {
                case .anyone: expected = ["allowed", "allowed", "allowed"]
                case .signedIn: expected = ["denied", "allowed", "allowed"]
                case .master: expected = ["denied", "denied", "denied"]
                case .some(let roles, _, let pointers):
                    let member = roles.contains("Admin") ? "allowed" : pointers.isEmpty ? "denied" : "restricted"
                    expected = [pointers.isEmpty ? "denied" : "restricted", pointers.isEmpty ? "denied" : "restricted", member]
                }
                #expect(seen == expected, "\(operation) of \(clp)")
            }
        }
    }
}
