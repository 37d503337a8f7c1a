/// The shipped English and Japanese messages. Placeholders: `appName`, `link`, `username`,
/// `email`, `expires` (a duration in words); the security notices' are in `SecurityTemplates`.
enum BuiltInTemplates {
    static let all = accountLinks.merging(SecurityTemplates.all) { links, notices in links.merging(notices) { $1 } }

    static let accountLinks: [String: [MailTemplates.Kind: MailTemplates.Template]] = [
        "en": [
            .verifyEmail: .init(
                subject: "Confirm your email for {{appName}}",
                text: """
                    Hi {{username}},

                    Please confirm that {{email}} is your email address for {{appName}} by opening this link:

                    {{link}}

                    The link works once{{expires}}. If you did not sign up for {{appName}}, ignore this message.
                    """,
                html: page(
                    lang: "en", title: "Confirm your email",
                    body: "<p>Hi {{username}},</p><p>Please confirm that <strong>{{email}}</strong> is your email address for {{appName}}.</p>",
                    button: "Confirm email", footer: "The link works once{{expires}}. If you did not sign up for {{appName}}, ignore this message.")),
            .passwordReset: .init(
                subject: "Reset your {{appName}} password",
                text: """
                    Hi {{username}},

                    Someone (hopefully you) asked to reset the password of your {{appName}} account. To choose a new one, open this link:

                    {{link}}

                    The link works once{{expires}}. If you did not ask for this, ignore this message: your password stays as it is.
                    """,
                html: page(
                    lang: "en", title: "Reset your password",
                    body: "<p>Hi {{username}},</p><p>Someone (hopefully you) asked to reset the password of your {{appName}} account.</p>",
                    button: "Choose a new password",
                    footer: "The link works once{{expires}}. If you did not ask for this, ignore this message: your password stays as it is.")),
        ],
        "ja": [
            .verifyEmail: .init(
                subject: "{{appName}} メールアドレスの確認",
                text: """
                    {{username}} 様

                    {{appName}} に登録されたメールアドレス {{email}} を確認するため、次のリンクを開いてください。

                    {{link}}

                    このリンクは一度だけ使えます{{expires}}。お心当たりのない場合は、このメールを破棄してください。
                    """,
                html: page(
                    lang: "ja", title: "メールアドレスの確認",
                    body: "<p>{{username}} 様</p><p>{{appName}} に登録されたメールアドレス <strong>{{email}}</strong> を確認してください。</p>",
                    button: "メールアドレスを確認する", footer: "このリンクは一度だけ使えます{{expires}}。お心当たりのない場合は、このメールを破棄してください。")),
            .passwordReset: .init(
                subject: "{{appName}} パスワードの再設定",
                text: """
                    {{username}} 様

                    {{appName}} アカウントのパスワード再設定が依頼されました。新しいパスワードを設定するには、次のリンクを開いてください。

                    {{link}}

                    このリンクは一度だけ使えます{{expires}}。お心当たりのない場合は、このメールを破棄してください。パスワードは変更されません。
                    """,
                html: page(
                    lang: "ja", title: "パスワードの再設定",
                    body: "<p>{{username}} 様</p><p>{{appName}} アカウントのパスワード再設定が依頼されました。</p>", button: "新しいパスワードを設定する",
                    footer: "このリンクは一度だけ使えます{{expires}}。お心当たりのない場合は、このメールを破棄してください。パスワードは変更されません。")),
        ],
    ]

    /// A simple, mail-client-safe layout: inline styles, one button, the link also as text.
    static func page(lang: String, title: String, body: String, button: String, footer: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="\(lang)"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>\(title)</title></head>
        <body style="margin:0;padding:24px;background:#f4f5f7;font-family:-apple-system,'Segoe UI',Roboto,'Hiragino Sans','Noto Sans JP',sans-serif;color:#1f2328">
        <div style="max-width:520px;margin:0 auto;background:#fff;border-radius:12px;padding:32px">
        <h1 style="font-size:20px;margin:0 0 16px">\(title)</h1>
        \(body)
        <p style="margin:28px 0"><a href="{{link}}" style="background:#2463eb;color:#fff;text-decoration:none;padding:12px 20px;border-radius:8px;display:inline-block">\(button)</a></p>
        <p style="font-size:13px;color:#57606a;word-break:break-all">{{link}}</p>
        <p style="font-size:13px;color:#57606a">\(footer)</p>
        </div></body></html>
        """
    }
}
