/// The users area's words (edit, owned objects, view as this user).
extension ConsoleText {
    static let userEnglish: [String: String] = [
        "userEdit": "Edit fields",
        "userEditHint": "Saved as PUT /users/<id> with the master key: the same rules, uniqueness checks, verification mail and security notices.",
        "userEmailVerified": "Email verified", "userSave": "Save", "userSaved": "The user was saved.",
        "userNothingChanged": "Nothing changed.", "userEditOnDataPage": "several lines; edit it on the data page.",
        "userNotANumber": "not a number; nothing was saved.",
        "userOwned": "Objects this user owns",
        "userOwnedHint": "Objects whose Pointer<_User> field points at this user, newest first (10 per field).",
        "userOwnsNothing": "No object points at this user.",
        "userViewAs": "View as this user",
        "userViewAsHint":
            "Read-only: exactly what a find by this user's session answers (ACLs, class permissions, protected fields). No session is created; the view is audited.",
        "userClass": "Class", "userView": "View", "userWhere": "where (JSON, optional)",
        "userWhereHint": "As in a REST query, e.g. {\"score\":{\"$gt\":1}}. The first 50 objects are shown.",
        "userGetById": "Or get one objectId", "userObject": "Object as the user sees it",
        "userSeesNothing": "This user sees no object here.",
    ]

    static let userJapanese: [String: String] = [
        "userEdit": "フィールドの編集",
        "userEditHint": "マスターキーでの PUT /users/<id> として保存します。同じ規則・重複チェック・確認メール・セキュリティ通知が適用されます。",
        "userEmailVerified": "メール確認済み", "userSave": "保存", "userSaved": "ユーザーを保存しました。",
        "userNothingChanged": "変更はありません。", "userEditOnDataPage": "複数行のため、データのページで編集してください。", "userNotANumber": "数値ではないため、保存していません。",
        "userOwned": "このユーザーが所有するオブジェクト",
        "userOwnedHint": "Pointer<_User> フィールドがこのユーザーを指すオブジェクト（新しい順、フィールドごとに10件）。",
        "userOwnsNothing": "このユーザーを指すオブジェクトはありません。",
        "userViewAs": "このユーザーとして表示",
        "userViewAsHint": "閲覧のみ：このユーザーのセッションでの検索結果そのもの（ACL・クラス権限・保護フィールドを適用）。セッションは作成せず、表示は監査ログに記録されます。",
        "userClass": "クラス", "userView": "表示", "userWhere": "where（JSON、任意）",
        "userWhereHint": "REST のクエリと同じ形式です。例：{\"score\":{\"$gt\":1}}。最初の50件を表示します。",
        "userGetById": "または objectId で1件取得", "userObject": "ユーザーから見えるオブジェクト",
        "userSeesNothing": "このユーザーにはここで見えるオブジェクトがありません。",
    ]
}
