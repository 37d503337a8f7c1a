extension ConsoleText {
    /// The schema pages' words.
    static let schemaEnglish: [String: String] = [
        "schemaTitle": "Schema", "schemaIntro": "Classes and their fields, indexes and class-level permissions, as GET /schemas shows them.",
        "schemaClass": "Class", "schemaFields": "Fields", "schemaIndexes": "Indexes", "schemaCreateClass": "Create a class",
        "schemaClassName": "Class name", "schemaClassNameHint": "Letters, digits and _, starting with a letter.", "schemaCreate": "Create",
        "schemaInWords": "Permissions in words", "schemaFieldName": "Field", "schemaType": "Type", "schemaTarget": "Target class",
        "schemaRequired": "Required", "schemaDefault": "Default value", "schemaBuiltIn": "built-in", "schemaAddField": "Add field",
        "schemaTargetHint": "For Pointer and Relation only.",
        "schemaDefaultHint": "Optional. A number, true/false, an ISO date, an objectId for a Pointer, or JSON for Object, Array, GeoPoint.",
        "schemaRemoveField": "Remove a field", "schemaConfirmField": "Type the field's name to confirm",
        "schemaRemoveFieldHint": "Removing a field deletes its value in every object of the class.", "schemaRemove": "Remove",
        "schemaIndexName": "Index name", "schemaNoIndexes": "No indexes besides the built-in ones.", "schemaAddIndex": "Add index",
        "schemaDirection": "Direction", "schemaAscending": "ascending", "schemaDescending": "descending",
        "schemaDeleteClass": "Delete this class",
        "schemaDeleteHint": "Type the class name to confirm. Only an empty class can be deleted.",
        "schemaPermissions": "Class-level permissions",
        "schemaPermissionsHint":
            "Tick who may perform each operation. An operation with no tick is allowed to the master key only. "
            + "Pointer columns (→) allow the user a field points to; readUserFields count for get, find and count, writeUserFields for update, delete and addField.",
        "schemaOperation": "Operation", "schemaPublic": "Public (*)", "schemaSignedIn": "Requires authentication",
        "schemaNewAudience": "Another role or user",
        "schemaNewAudienceHint": "role:Name or a user's objectId; tick its column above to give it operations.",
        "schemaProtected": "Protected fields",
        "schemaProtectedHint":
            "One line per scope: scope = field, field. Scopes: *, authenticated, role:Name, a user's objectId, userField:pointerField. "
            + "A caller sees a field unless every scope that applies to it lists the field.",
        "schemaSavePermissions": "Save permissions", "schemaYes": "yes", "schemaClassCreated": "The class was created.",
        "schemaClassDeleted": "The class was deleted.", "schemaSaved": "The schema was saved.",
        "schemaConfirmMismatch": "The typed name does not match; nothing was changed.",
        "schemaProtectedFormat": "Protected fields: write each line as scope = field, field. Nothing was changed.",
        "schemaFormTooLarge": "The form has too many ticks to read safely; nothing was changed. Use PUT /schemas for this class.",
    ]

    /// The schema pages' words in Japanese.
    static let schemaJapanese: [String: String] = [
        "schemaTitle": "スキーマ", "schemaIntro": "クラスとそのフィールド・インデックス・クラスレベル権限（GET /schemas と同じ内容）。",
        "schemaClass": "クラス", "schemaFields": "フィールド", "schemaIndexes": "インデックス", "schemaCreateClass": "クラスを作成",
        "schemaClassName": "クラス名", "schemaClassNameHint": "英字で始まる英数字と _。", "schemaCreate": "作成",
        "schemaInWords": "権限の説明", "schemaFieldName": "フィールド", "schemaType": "型", "schemaTarget": "対象クラス",
        "schemaRequired": "必須", "schemaDefault": "既定値", "schemaBuiltIn": "組み込み", "schemaAddField": "フィールドを追加",
        "schemaTargetHint": "Pointer と Relation のみ。",
        "schemaDefaultHint": "任意。数値、true/false、ISO 形式の日時、Pointer なら objectId、Object・Array・GeoPoint なら JSON。",
        "schemaRemoveField": "フィールドを削除", "schemaConfirmField": "確認のためフィールド名を入力",
        "schemaRemoveFieldHint": "フィールドを削除すると、このクラスのすべてのオブジェクトからその値が消えます。", "schemaRemove": "削除",
        "schemaIndexName": "インデックス名", "schemaNoIndexes": "組み込み以外のインデックスはありません。", "schemaAddIndex": "インデックスを追加",
        "schemaDirection": "順序", "schemaAscending": "昇順", "schemaDescending": "降順",
        "schemaDeleteClass": "このクラスを削除",
        "schemaDeleteHint": "確認のためクラス名を入力してください。削除できるのは空のクラスだけです。",
        "schemaPermissions": "クラスレベル権限",
        "schemaPermissionsHint":
            "操作ごとに許可する相手にチェックを入れます。チェックのない操作はマスターキーだけが行えます。"
            + "ポインター列（→）はそのフィールドが指すユーザーを許可します。readUserFields は get・find・count に、writeUserFields は update・delete・addField に効きます。",
        "schemaOperation": "操作", "schemaPublic": "公開（*）", "schemaSignedIn": "サインイン必須",
        "schemaNewAudience": "ほかのロールまたはユーザー",
        "schemaNewAudienceHint": "role:名前 またはユーザーの objectId。上の表のこの列にチェックを入れると操作を許可します。",
        "schemaProtected": "保護フィールド",
        "schemaProtectedHint":
            "範囲ごとに1行: 範囲 = フィールド, フィールド。範囲は *、authenticated、role:名前、ユーザーの objectId、userField:ポインターフィールド。"
            + "当てはまるすべての範囲に挙がっているフィールドだけが見えなくなります。",
        "schemaSavePermissions": "権限を保存", "schemaYes": "はい", "schemaClassCreated": "クラスを作成しました。",
        "schemaClassDeleted": "クラスを削除しました。", "schemaSaved": "スキーマを保存しました。",
        "schemaConfirmMismatch": "入力された名前が一致しないため、何も変更していません。",
        "schemaProtectedFormat": "保護フィールドは各行を 範囲 = フィールド, フィールド の形で書いてください。何も変更していません。",
        "schemaFormTooLarge": "チェックが多すぎてフォームを安全に読めないため、何も変更していません。このクラスは PUT /schemas で変更してください。",
    ]
}
