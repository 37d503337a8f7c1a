/// The shipped security notices in English and Japanese. Placeholders: `appName`, `username`,
/// `time` (UTC), `device` (name, type and app of the session, or "unknown"), `address` (the
/// coarse network: a /24 or /48), `provider` (a sign-in method's name), `newEmail` (the new
/// address, partly hidden, in the mail to the old one) and `link` (the page where a reset link
/// is requested: no secret) and `left` (recovery codes left). None carries a token, a code or a
/// password.
enum SecurityTemplates {
    typealias Template = MailTemplates.Template

    static let all: [String: [MailTemplates.Kind: Template]] = [
        "en": [
            .passwordChanged: notice(
                en: "The password of your {{appName}} account was changed", title: "Your password was changed",
                what: "the password of your {{appName}} account was changed."),
            .emailChanged: notice(
                en: "The email of your {{appName}} account was changed", title: "Your email address was changed",
                what:
                    "the email address of your {{appName}} account was changed from this address to {{newEmail}}. This address no longer receives its mail.",
                act:
                    "If you did not make this change, someone else may control your account. For 24 hours this address can still ask for a password reset link here; the reset signs every device out, then sign in and put your address back."
            ),
            .emailAdded: Template(
                subject: "This address is now used by a {{appName}} account",
                text: """
                    Hello,

                    This address was set as the email of a {{appName}} account on {{time}}.

                    If you did not do this, you can ignore this message: without access to this mailbox nobody can reset a password through it. To take the account over, ask for a password reset here:

                    {{link}}
                    """,
                html: BuiltInTemplates.page(
                    lang: "en", title: "Your address was added to an account",
                    body: "<p>Hello,</p><p>This address was set as the email of a {{appName}} account on {{time}}.</p>",
                    button: "Reset the password",
                    footer:
                        "If you did not do this, you can ignore this message: without access to this mailbox nobody can reset a password through it.")
            ),
            .newDevice: notice(
                en: "New sign-in to your {{appName}} account", title: "New sign-in",
                what: "your {{appName}} account was signed in from a device it had not been used on before."),
            .providerLinked: notice(
                en: "A sign-in method was added to your {{appName}} account", title: "Sign-in method added",
                what: "{{provider}} was added as a way to sign in to your {{appName}} account."),
            .providerUnlinked: notice(
                en: "A sign-in method was removed from your {{appName}} account", title: "Sign-in method removed",
                what: "{{provider}} was removed from the ways to sign in to your {{appName}} account."),
            .secondFactorEnabled: notice(
                en: "Two-step sign-in was turned on for your {{appName}} account", title: "Two-step sign-in turned on",
                what: "two-step sign-in (a code from an authenticator app) was turned on for your {{appName}} account.",
                act:
                    "If this was not you, someone who knows your password has set up their own authenticator: reset your password now, and contact support to have the second factor removed."
            ),
            .secondFactorRemoved: notice(
                en: "Two-step sign-in was turned off for your {{appName}} account", title: "Two-step sign-in turned off",
                what: "two-step sign-in was turned off for your {{appName}} account: a password alone now signs in."),
            .recoveryCodeUsed: notice(
                en: "A recovery code was used to sign in to your {{appName}} account", title: "Recovery code used",
                what: "a recovery code was used in place of an authenticator code for your {{appName}} account. {{left}} recovery codes are left."
            ),
            .passkeyAdded: notice(
                en: "A passkey was added to your {{appName}} account", title: "Passkey added",
                what: "a passkey named \u{201C}{{passkey}}\u{201D} was added to your {{appName}} account: it signs in without a password.",
                act:
                    "If this was not you, someone signed in to your account and added their own device: reset your password now, and remove the passkey from your account (or ask support to)."
            ),
            .passkeyRemoved: notice(
                en: "A passkey was removed from your {{appName}} account", title: "Passkey removed",
                what: "the passkey named \u{201C}{{passkey}}\u{201D} was removed from your {{appName}} account: it no longer signs in."),
        ],
        "ja": [
            .passwordChanged: notice(
                ja: "{{appName}} アカウントのパスワードが変更されました", title: "パスワードが変更されました",
                what: "{{appName}} アカウントのパスワードが変更されました。"),
            .emailChanged: notice(
                ja: "{{appName}} アカウントのメールアドレスが変更されました", title: "メールアドレスが変更されました",
                what: "{{appName}} アカウントのメールアドレスが、このアドレスから {{newEmail}} に変更されました。今後このアドレスにはお知らせが届きません。",
                act:
                    "お心当たりのない場合は、第三者がアカウントを操作している可能性があります。24時間以内であれば、このアドレスからこちらでパスワードの再設定を申し込めます。再設定するとすべての端末がサインアウトされます。その後サインインして、メールアドレスを元に戻してください。"
            ),
            .emailAdded: Template(
                subject: "このアドレスが {{appName}} アカウントに登録されました",
                text: """
                    こんにちは。

                    {{time}} に、このアドレスが {{appName}} アカウントのメールアドレスとして登録されました。

                    お心当たりのない場合は、このメールを破棄してください。このメールボックスを使えない人は、このアドレスでパスワードを再設定できません。アカウントを引き継ぐには、こちらからパスワードの再設定をお申し込みください。

                    {{link}}
                    """,
                html: BuiltInTemplates.page(
                    lang: "ja", title: "アドレスがアカウントに登録されました",
                    body: "<p>こんにちは。</p><p>{{time}} に、このアドレスが {{appName}} アカウントのメールアドレスとして登録されました。</p>",
                    button: "パスワードを再設定する",
                    footer: "お心当たりのない場合は、このメールを破棄してください。このメールボックスを使えない人は、このアドレスでパスワードを再設定できません。")),
            .newDevice: notice(
                ja: "{{appName}} アカウントに新しい端末からサインインがありました", title: "新しい端末からのサインイン",
                what: "{{appName}} アカウントに、これまで使われたことのない端末からサインインがありました。"),
            .providerLinked: notice(
                ja: "{{appName}} アカウントにサインイン方法が追加されました", title: "サインイン方法が追加されました",
                what: "{{appName}} アカウントのサインイン方法に {{provider}} が追加されました。"),
            .providerUnlinked: notice(
                ja: "{{appName}} アカウントからサインイン方法が削除されました", title: "サインイン方法が削除されました",
                what: "{{appName}} アカウントのサインイン方法から {{provider}} が削除されました。"),
            .secondFactorEnabled: notice(
                ja: "{{appName}} アカウントで2段階認証が有効になりました", title: "2段階認証が有効になりました",
                what: "{{appName}} アカウントで2段階認証（認証アプリのコード）が有効になりました。",
                act: "お心当たりのない場合は、パスワードを知る第三者が自分の認証アプリを登録した可能性があります。すぐにパスワードを再設定し、2段階認証の解除をサポートにご依頼ください。"),
            .secondFactorRemoved: notice(
                ja: "{{appName}} アカウントで2段階認証が無効になりました", title: "2段階認証が無効になりました",
                what: "{{appName}} アカウントで2段階認証が無効になりました。今後はパスワードだけでサインインできます。"),
            .recoveryCodeUsed: notice(
                ja: "{{appName}} アカウントでリカバリーコードが使われました", title: "リカバリーコードが使われました",
                what: "{{appName}} アカウントで、認証アプリのコードの代わりにリカバリーコードが使われました。残りのリカバリーコードは {{left}} 個です。"),
            .passkeyAdded: notice(
                ja: "{{appName}} アカウントにパスキーが追加されました", title: "パスキーが追加されました",
                what: "{{appName}} アカウントにパスキー「{{passkey}}」が追加されました。このパスキーではパスワードなしでサインインできます。",
                act: "お心当たりのない場合は、第三者がアカウントにサインインして自分の端末を追加した可能性があります。すぐにパスワードを再設定し、アカウントからこのパスキーを削除してください（またはサポートにご依頼ください）。"),
            .passkeyRemoved: notice(
                ja: "{{appName}} アカウントからパスキーが削除されました", title: "パスキーが削除されました",
                what: "{{appName}} アカウントからパスキー「{{passkey}}」が削除されました。このパスキーではもうサインインできません。"),
        ],
    ]

    /// An English notice: what happened, when, from where, and what to do if it wasn't you.
    static func notice(en subject: String, title: String, what: String, act: String? = nil) -> Template {
        let act = act ?? "If this was not you, reset your password now: ask for a reset link here, and it is sent to this address."
        let details = "When: {{time}}\nDevice: {{device}}\nNetwork: {{address}}"
        return Template(
            subject: subject,
            text: "Hi {{username}},\n\nOn {{time}}, \(what)\n\n\(details)\n\nIf this was you, there is nothing to do. \(act)\n\n{{link}}\n",
            html: BuiltInTemplates.page(
                lang: "en", title: title,
                body: "<p>Hi {{username}},</p><p>On {{time}}, \(what)</p>"
                    + "<p>When: {{time}}<br>Device: {{device}}<br>Network: {{address}}</p><p>If this was you, there is nothing to do.</p>",
                button: "Reset your password", footer: act))
    }

    /// A Japanese notice, laid out as the English one.
    static func notice(ja subject: String, title: String, what: String, act: String? = nil) -> Template {
        let act = act ?? "お心当たりのない場合は、すぐにパスワードを再設定してください。こちらからお申し込みいただくと、再設定用のリンクをこのアドレスにお送りします。"
        let details = "日時: {{time}}\n端末: {{device}}\nネットワーク: {{address}}"
        return Template(
            subject: subject,
            text: "{{username}} 様\n\n{{time}} に、\(what)\n\n\(details)\n\nご本人による操作であれば、対応は不要です。\(act)\n\n{{link}}\n",
            html: BuiltInTemplates.page(
                lang: "ja", title: title,
                body: "<p>{{username}} 様</p><p>{{time}} に、\(what)</p>"
                    + "<p>日時: {{time}}<br>端末: {{device}}<br>ネットワーク: {{address}}</p><p>ご本人による操作であれば、対応は不要です。</p>",
                button: "パスワードを再設定する", footer: act))
    }
}
