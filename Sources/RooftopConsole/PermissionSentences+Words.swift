import RooftopCore

extension PermissionSentences {
    /// One language's phrasing of the sentences: word order differs too much between English
    /// and Japanese for templates of words, so each language builds whole sentences.
    struct Words: Sendable {
        let read: String
        let verbs: [ClassLevelPermissions.Operation: String]
        let join: @Sendable ([String]) -> String
        let role: @Sendable (String) -> String
        let user: @Sendable (String) -> String
        let pointer: @Sendable (String) -> String
        let anyone: @Sendable (String) -> String
        let signedIn: @Sendable (String) -> String
        let master: @Sendable (String) -> String
        let only: @Sendable (String, String) -> String
        let hiddenFromAnonymous: @Sendable (String) -> String
        let hiddenFromAll: @Sendable (String) -> String
        let hiddenFromAllBut: @Sendable (String, [String]) -> String
        let hiddenFromSignedIn: @Sendable (String, [String]) -> String
        let hiddenFrom: @Sendable (String, [String], [String]) -> String

        /// The sentence saying who may perform the verbs.
        func sentence(_ who: Who, _ verbs: [String]) -> String {
            let list = join(verbs)
            switch who {
            case .anyone: return anyone(list)
            case .signedIn: return signedIn(list)
            case .master: return master(list)
            case .some(let roles, let users, let pointers):
                return only(join(roles.map(role) + users.map(user) + pointers.map(pointer)), list)
            }
        }

        /// A protected-field audience (`role:X`, a user id, `userField:f`) as words.
        func audience(_ key: String) -> String {
            if key.hasPrefix("role:") { return role(String(key.dropFirst(5))) }
            if key.hasPrefix("userField:") { return pointer(String(key.dropFirst(10))) }
            return user(key)
        }

        /// `a`, `a and b`, `a, b and c`.
        static func englishList(_ items: [String]) -> String {
            items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + (items.last ?? "")
        }

        /// `a・b・c`.
        static func japaneseList(_ items: [String]) -> String { items.joined(separator: "・") }

        static let english = Words(
            read: "read (get, find, count)",
            verbs: [
                .get: "get objects by id", .find: "query (find)", .count: "count", .create: "create", .update: "update", .delete: "delete",
                .addField: "add fields",
            ],
            join: englishList,
            role: { "members of role `\($0)`" }, user: { "user `\($0)`" }, pointer: { "the user in `\($0)`" },
            anyone: { "Anyone can \($0)." }, signedIn: { "Signed-in users can \($0)." },
            master: { "Only the master key can \($0)." },
            only: { who, verbs in "Only \(who) can \(verbs)." },
            hiddenFromAnonymous: { "`\($0)` is hidden from visitors who are not signed in." },
            hiddenFromAll: { "`\($0)` is hidden from everyone; only the master key can read it." },
            hiddenFromAllBut: { field, but in "`\(field)` is hidden from everyone but \(englishList(but))." },
            hiddenFromSignedIn: { field, but in
                let except = but.isEmpty ? "" : " except \(englishList(but))"
                return "`\(field)` is hidden from signed-in users\(except), but visitors who are not signed in can read it."
            },
            hiddenFrom: { field, hiding, showing in
                let except = showing.isEmpty ? "" : " (unless they are also \(englishList(showing)))"
                return "`\(field)` is hidden from \(englishList(hiding))\(except)."
            })

        static let japanese = Words(
            read: "読み取り（get・find・count）",
            verbs: [
                .get: "IDでの取得", .find: "検索（find）", .count: "件数の取得", .create: "作成", .update: "更新", .delete: "削除",
                .addField: "フィールドの追加",
            ],
            join: japaneseList,
            role: { "ロール `\($0)` のメンバー" }, user: { "ユーザー `\($0)`" }, pointer: { "`\($0)` のユーザー" },
            anyone: { "誰でも\($0)ができます。" }, signedIn: { "サインインしたユーザーは\($0)ができます。" },
            master: { "\($0)ができるのはマスターキーだけです。" },
            only: { who, verbs in "\(verbs)ができるのは\(who)だけです。" },
            hiddenFromAnonymous: { "`\($0)` はサインインしていない訪問者には非表示です。" },
            hiddenFromAll: { "`\($0)` は全員に非表示です（読めるのはマスターキーだけです）。" },
            hiddenFromAllBut: { field, but in "`\(field)` は\(japaneseList(but))以外には非表示です。" },
            hiddenFromSignedIn: { field, but in
                let except = but.isEmpty ? "" : "（\(japaneseList(but))を除く）"
                return "`\(field)` はサインインしたユーザー\(except)には非表示ですが、サインインしていない訪問者は読めます。"
            },
            hiddenFrom: { field, hiding, showing in
                let except = showing.isEmpty ? "" : "（\(japaneseList(showing))でもある場合を除く）"
                return "`\(field)` は\(japaneseList(hiding))\(except)には非表示です。"
            })
    }
}
