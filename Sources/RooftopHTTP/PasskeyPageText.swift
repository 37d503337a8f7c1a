/// The passkey page's words, in English and Japanese (the page's `Accept-Language` picks one).
enum PasskeyPageText {
    /// Every word the page shows, by language.
    static let words: [String: [String: String]] = [
        "en": [
            "title": "Passkeys",
            "message": "Sign in to {{appName}} with a passkey, or with your password to add one.",
            "needsScript": "This page needs JavaScript.",
            "passkeyHeading": "Sign in with a passkey",
            "usernameOptional": "Username (optional)",
            "passkeyButton": "Use a passkey",
            "passwordHeading": "Or with your password",
            "username": "Username",
            "password": "Password",
            "passwordButton": "Sign in",
            "signedInAs": "Signed in as {name}",
            "passkeyName": "Name for a new passkey (optional)",
            "addButton": "Add a passkey",
            "listHeading": "Your passkeys",
            "noPasskeys": "No passkeys yet.",
            "signOut": "Sign out",
        ],
        "ja": [
            "title": "パスキー",
            "message": "パスキーで {{appName}} にサインインするか、パスワードでサインインしてパスキーを追加します。",
            "needsScript": "このページには JavaScript が必要です。",
            "passkeyHeading": "パスキーでサインイン",
            "usernameOptional": "ユーザー名（省略可）",
            "passkeyButton": "パスキーを使う",
            "passwordHeading": "パスワードでサインイン",
            "username": "ユーザー名",
            "password": "パスワード",
            "passwordButton": "サインイン",
            "signedInAs": "{name} としてサインイン中",
            "passkeyName": "新しいパスキーの名前（省略可）",
            "addButton": "パスキーを追加",
            "listHeading": "登録済みのパスキー",
            "noPasskeys": "パスキーはまだありません。",
            "signOut": "サインアウト",
        ],
    ]

    /// The words of `language`, else English.
    static func words(_ language: String) -> [String: String] { words[language] ?? words["en"] ?? [:] }
}
