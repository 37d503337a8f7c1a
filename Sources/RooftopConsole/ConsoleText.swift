/// The console's words in English and Japanese, by key (the templates read them as `t.key`).
enum ConsoleText {
    /// The languages the console speaks.
    static let languages = ["en", "ja"]

    static func words(_ language: String) -> [String: String] { language == "ja" ? japanese : english }

    /// Every English word: the core's here, each area's from its own file
    /// (`ConsoleText+Area.swift`).
    static let english: [String: String] = areaEnglish.reduce(into: coreEnglish) { all, area in all.merge(area) { first, _ in first } }
    /// Every Japanese word, merged the same way.
    static let japanese: [String: String] = areaJapanese.reduce(into: coreJapanese) { all, area in all.merge(area) { first, _ in first } }

    /// The areas' words, one dictionary per area's file, in the same order in both languages.
    static let areaEnglish: [[String: String]] = [schemaEnglish, opsEnglish, dataEnglish, userEnglish]
    static let areaJapanese: [[String: String]] = [schemaJapanese, opsJapanese, dataJapanese, userJapanese]

    static let coreEnglish: [String: String] = [
        "console": "Console", "skip": "Skip to content", "navigation": "Console sections", "signIn": "Sign in", "signOut": "Sign out",
        "adminName": "Admin name", "password": "Password", "code": "Authenticator code", "codeHint": "Only if your admin account has one.",
        "users": "Users", "audit": "Audit log", "status": "Status", "search": "Search",
        "searchLabel": "Username, email (or their beginning) or objectId", "noUsers": "No user matches.", "username": "Username", "email": "Email",
        "created": "Created", "updated": "Updated", "profile": "Profile", "emailState": "Email verification",
        "verified": "verified", "unverified": "not verified", "noEmail": "no email", "methods": "Sign-in methods",
        "lockState": "Lockout", "locked": "locked until", "notLocked": "not locked", "failedAttempts": "failed attempts",
        "sessions": "Sessions", "noSessions": "No sessions.", "device": "Device", "deviceType": "Type", "app": "App",
        "network": "Network", "lastUsed": "Last used", "revoke": "Revoke", "revokeAll": "Revoke all sessions",
        "sendVerification": "Send verification mail", "sendReset": "Send password reset mail", "unlock": "Unlock",
        "actions": "Actions", "recentEvents": "Recent audit events", "noEvents": "No events.", "time": "Time", "event": "Event",
        "user": "User", "admin": "Admin", "address": "Address", "detail": "Detail", "deleteUser": "Delete this user",
        "deleteHint": "Type the username to confirm. This deletes the user and all their sessions.", "confirmLabel": "Username",
        "delete": "Delete", "filters": "Filters", "anyEvent": "Any event", "since": "From", "until": "Until", "apply": "Apply",
        "older": "Older events", "version": "Version", "database": "Database", "mailQueue": "Mail queue", "uptime": "Uptime",
        "notConfigured": "not configured", "owner": "owner", "readOnly": "read-only", "fields": "Other fields",
        "forbidden": "This admin account may only look, not change anything.", "notFound": "There is no such page.",
        "badToken": "The form expired or did not come from this console. Reload the page and try again.",
        "refusedAddress": "The console does not answer this address.",
        "invalidLogin":
            "Wrong admin name, password or code, or too many failed sign-ins (the account is then locked for a while: ask another owner "
            + "to run rooftop admin reset-password, or wait).",
        "crossOrigin": "This form was sent from another site. Open the console directly and try again.",
        "plainHTTP": "This connection is not encrypted: passwords and session cookies cross the network in clear. "
            + "Serve the console over HTTPS (a TLS proxy in front) before using it from another machine.",
        "codeNeeded": "Enter the code from your authenticator app.", "tooMany": "Too many sign-in attempts from this address. Wait a minute.",
        "verificationSent": "A verification mail was sent.", "resetSent": "A password reset mail was sent.", "unlocked": "The user is unlocked.",
        "revoked": "The session was revoked.", "revokedAll": "All sessions were revoked.", "deleted": "The user was deleted.",
        "confirmMismatch": "The typed name does not match the username; nothing was deleted.", "noUser": "There is no such user.",
        "language": "Language", "data": "Data", "roles": "Roles",
        "noAdmin": "The console has no admin yet. Create the first one on the server with",
        "noAdminOptions": "(with the --data-dir or --config rooftop serve was started with; it asks for a password), then sign in here.",
    ]

    static let coreJapanese: [String: String] = [
        "console": "コンソール", "skip": "本文へ移動", "navigation": "コンソールの各画面", "signIn": "サインイン", "signOut": "サインアウト",
        "adminName": "管理者名", "password": "パスワード", "code": "認証アプリのコード", "codeHint": "管理者アカウントに設定している場合のみ。",
        "users": "ユーザー", "audit": "監査ログ", "status": "状態", "search": "検索",
        "searchLabel": "ユーザー名・メールアドレス（先頭部分でも可）・objectId", "noUsers": "該当するユーザーはいません。", "username": "ユーザー名",
        "email": "メールアドレス", "created": "作成", "updated": "更新", "profile": "プロフィール", "emailState": "メール確認",
        "verified": "確認済み", "unverified": "未確認", "noEmail": "メールアドレスなし", "methods": "サインイン方法",
        "lockState": "ロック", "locked": "ロック中（解除予定）", "notLocked": "ロックされていません", "failedAttempts": "失敗回数",
        "sessions": "セッション", "noSessions": "セッションはありません。", "device": "端末", "deviceType": "種類", "app": "アプリ",
        "network": "ネットワーク", "lastUsed": "最終利用", "revoke": "無効化", "revokeAll": "すべてのセッションを無効化",
        "sendVerification": "確認メールを送信", "sendReset": "パスワード再設定メールを送信", "unlock": "ロック解除",
        "actions": "操作", "recentEvents": "最近の監査イベント", "noEvents": "イベントはありません。", "time": "日時", "event": "イベント",
        "user": "ユーザー", "admin": "管理者", "address": "アドレス", "detail": "詳細", "deleteUser": "このユーザーを削除",
        "deleteHint": "確認のためユーザー名を入力してください。ユーザーとそのすべてのセッションが削除されます。", "confirmLabel": "ユーザー名",
        "delete": "削除", "filters": "絞り込み", "anyEvent": "すべてのイベント", "since": "開始", "until": "終了", "apply": "適用",
        "older": "さらに古いイベント", "version": "バージョン", "database": "データベース", "mailQueue": "メール送信待ち", "uptime": "稼働時間",
        "notConfigured": "未設定", "owner": "オーナー", "readOnly": "閲覧のみ", "fields": "その他のフィールド",
        "forbidden": "この管理者アカウントは閲覧のみで、変更はできません。", "notFound": "このページはありません。",
        "badToken": "フォームの有効期限が切れたか、このコンソールから送られたものではありません。再読み込みしてやり直してください。",
        "refusedAddress": "このアドレスからはコンソールを利用できません。",
        "invalidLogin":
            "管理者名・パスワード・コードのいずれかが違うか、サインインの失敗が多すぎます（その場合アカウントはしばらくロックされます。"
            + "別のオーナーに rooftop admin reset-password を実行してもらうか、時間をおいてください）。",
        "crossOrigin": "このフォームは別のサイトから送信されました。コンソールを直接開いてやり直してください。",
        "plainHTTP": "この接続は暗号化されていません。パスワードとセッション Cookie が平文でネットワークを流れます。"
            + "ほかのマシンから使う前に、コンソールを HTTPS（前段の TLS プロキシ）で提供してください。",
        "codeNeeded": "認証アプリのコードを入力してください。", "tooMany": "このアドレスからのサインインが多すぎます。1分待ってください。",
        "verificationSent": "確認メールを送信しました。", "resetSent": "パスワード再設定メールを送信しました。", "unlocked": "ロックを解除しました。",
        "revoked": "セッションを無効化しました。", "revokedAll": "すべてのセッションを無効化しました。", "deleted": "ユーザーを削除しました。",
        "confirmMismatch": "入力された名前がユーザー名と一致しないため、削除していません。", "noUser": "該当するユーザーはいません。",
        "language": "言語", "data": "データ", "roles": "ロール",
        "noAdmin": "コンソールの管理者はまだいません。最初の管理者をサーバー上で次のコマンドで作成してください:",
        "noAdminOptions":
            "（rooftop serve に --data-dir や --config を指定した場合は同じものを付けてください。パスワードを尋ねられます）。"
            + "作成後、ここでサインインしてください。",
    ]
}
