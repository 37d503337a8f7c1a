/// The operations pages' words: status rates, export and backup, the mail outbox.
extension ConsoleText {
    static let opsEnglish: [String: String] = [
        "opsServer": "Server", "opsRates": "Requests", "opsWindow": "Over the last", "opsRequestsPerSecond": "Requests per second",
        "opsErrorsPerSecond": "Errors per second (4xx and 5xx)", "opsLastMinute": "minute", "opsLastFiveMinutes": "5 minutes",
        "opsCollecting": "still collecting samples; look again in a moment.",
        "opsRatesHint": "From the server's Prometheus counters (the metrics port), sampled every 10 seconds. Console pages are not counted.",
        "opsPool": "Database connections", "opsPoolInUse": "In use", "opsPoolWaiting": "Calls waiting",
        "opsMetricsOff": "Request rates come from the server's metrics, which are off. Set metricsPort to turn them on.",
        "opsTools": "Tools", "opsExport": "Export and backup", "opsExportHeading": "Export",
        "opsExportText":
            "Every class, object, relation and stored file as JSON lines: the same file as rooftop export, for rooftop import into a new database (SQLite or PostgreSQL).",
        "opsSecretsHint": "The file holds password hashes and session digests: keep it as private as the database.",
        "opsDownloadExport": "Download the export", "opsBackup": "Backup",
        "opsBackupText":
            "A consistent copy of the SQLite database file, taken while the server runs. Stored files are not in it: rooftop backup copies them too.",
        "opsDownloadBackup": "Download the backup", "opsBackupPostgres": "This server uses PostgreSQL: back it up with",
        "opsBackupFailed": "The backup could not be made; the server's log says why.",
        "opsOwnerOnly": "Only an owner may download the export or the backup: they contain every password hash.",
        "opsOutbox": "Outbox", "opsOutboxHint": "Mail written to files instead of sent (mail.transport outbox), newest first.",
        "opsTo": "To", "opsSubject": "Subject", "opsPage": "Page", "opsMessages": "messages", "opsNewer": "Newer", "opsOlder": "Older",
        "opsNoMessages": "No mail has been written yet.",
        "opsOutboxOff": "Mail is not written to the outbox here: it is sent (SMTP), or mail is not set up. The status page shows the mail queue.",
        "opsNoMessage": "There is no such message.",
        "opsOwnerOnlyMessage": "Only an owner may read a message: it carries single-use links that can change the user's account.",
        "opsLinksHint": "Links are shown as text, not as links: copy one into a private window to test it. It works once, as for the user.",
    ]

    static let opsJapanese: [String: String] = [
        "opsServer": "サーバー", "opsRates": "リクエスト", "opsWindow": "期間", "opsRequestsPerSecond": "毎秒のリクエスト数",
        "opsErrorsPerSecond": "毎秒のエラー数（4xx・5xx）", "opsLastMinute": "直近1分", "opsLastFiveMinutes": "直近5分",
        "opsCollecting": "サンプルを集めています。しばらくしてから再表示してください。",
        "opsRatesHint": "サーバーの Prometheus カウンター（メトリクス用ポート）を10秒ごとに記録した値です。コンソールの画面は数えません。",
        "opsPool": "データベース接続", "opsPoolInUse": "使用中", "opsPoolWaiting": "待機中の呼び出し",
        "opsMetricsOff": "リクエスト数はサーバーのメトリクスから読みますが、メトリクスがオフです。metricsPort を設定するとオンになります。",
        "opsTools": "ツール", "opsExport": "エクスポートとバックアップ", "opsExportHeading": "エクスポート",
        "opsExportText":
            "すべてのクラス・オブジェクト・リレーション・保存ファイルを JSON Lines で書き出します。rooftop export と同じファイルで、rooftop import で新しいデータベース（SQLite または PostgreSQL）に読み込めます。",
        "opsSecretsHint": "このファイルにはパスワードのハッシュとセッションのダイジェストが含まれます。データベースと同じく厳重に保管してください。",
        "opsDownloadExport": "エクスポートをダウンロード", "opsBackup": "バックアップ",
        "opsBackupText":
            "稼働中のサーバーから取った SQLite データベースファイルの一貫したコピーです。保存ファイルは含みません（rooftop backup はファイルもコピーします）。",
        "opsDownloadBackup": "バックアップをダウンロード", "opsBackupPostgres": "このサーバーは PostgreSQL を使っています。バックアップには次を使ってください：",
        "opsBackupFailed": "バックアップを作成できませんでした。理由はサーバーのログにあります。",
        "opsOwnerOnly": "エクスポートとバックアップはすべてのパスワードハッシュを含むため、オーナーだけがダウンロードできます。",
        "opsOutbox": "送信箱", "opsOutboxHint": "送信せずにファイルへ書き出したメール（mail.transport が outbox）です。新しい順。",
        "opsTo": "宛先", "opsSubject": "件名", "opsPage": "ページ", "opsMessages": "通", "opsNewer": "新しいメール", "opsOlder": "古いメール",
        "opsNoMessages": "まだメールはありません。",
        "opsOutboxOff": "このサーバーはメールを送信箱に書き出していません（SMTP で送信しているか、メールが未設定です）。メールの送信待ちは状態画面にあります。",
        "opsNoMessage": "該当するメールはありません。",
        "opsOwnerOnlyMessage": "メールにはアカウントを変更できる使い捨てのリンクが含まれるため、本文はオーナーだけが読めます。",
        "opsLinksHint": "リンクはクリックできない文字として表示します。試すときはプライベートウィンドウに貼り付けてください。利用者と同じく一度だけ有効です。",
    ]
}
