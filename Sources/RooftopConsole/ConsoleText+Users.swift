/// The users area's words (edit, owned objects, view as this user, the second factor).
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
        "secondFactor": "Second factor", "secondFactorOff": "off", "secondFactorOn": "on (%d recovery codes left)",
        "secondFactorOnOne": "on (1 recovery code left)",
        "secondFactorRemove": "Remove second factor",
        "secondFactorRemoveHint":
            "The user then signs in with their password alone until they enrol again; their authenticator's codes and recovery codes stop working. Audited with your name.",
        "secondFactorConfirmHint": "Type it exactly to confirm.",
        "secondFactorMismatch": "The typed name does not match; the second factor was not removed.",
        "secondFactorNone": "This user has no second factor; nothing was removed.",
        "secondFactorRemoved": "The second factor was removed.",
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
        "secondFactor": "二要素認証", "secondFactorOff": "オフ", "secondFactorOn": "オン（残りのリカバリーコード %d 件）",
        "secondFactorOnOne": "オン（残りのリカバリーコード 1 件）",
        "secondFactorRemove": "二要素認証を解除",
        "secondFactorRemoveHint":
            "解除すると、再び登録するまでユーザーはパスワードだけでサインインします。認証アプリのコードとリカバリーコードは使えなくなります。あなたの名前で監査ログに記録されます。",
        "secondFactorConfirmHint": "確認のため正確に入力してください。",
        "secondFactorMismatch": "入力された名前が一致しないため、二要素認証は解除していません。",
        "secondFactorNone": "このユーザーには二要素認証がないため、何も解除していません。",
        "secondFactorRemoved": "二要素認証を解除しました。",
    ]
}
