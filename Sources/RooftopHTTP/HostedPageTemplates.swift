import RooftopCore
import RooftopServices

/// The hosted pages' words in English and Japanese (their markup, style sheet and script are
/// `Resources/pages/`, `PageMarkup`). The words stay Swift data: each page's are checked against
/// `HostedPage.Kind` by the compiler, the error names `pages.json` may override are derived from
/// them, and an operator's `pages.json` is merged over them key by key.
enum HostedPageTemplates {
    /// The password-policy messages by name, and the placeholders each takes.
    static let errors: [String: [String: String]] = [
        "en": [
            "passwordMissing": "Please enter a password.", "passwordTooShort": "Password must be at least {{minimum}} characters long.",
            "passwordTooLong": "Password must be at most {{maximum}} characters long.",
            "passwordInvalidCharacter": "Password must not contain NUL characters.",
            "passwordContainsUsername": "Password cannot contain your username.",
            "passwordContextWord": "Password cannot be your email address or the name of this app.",
            "passwordCommon": "This password is too common: choose one that is harder to guess.",
            "passwordReused": "New password should not be the same as last {{count}} passwords.",
            "passwordRules":
                "Use at least {{minimum}} characters. It can't be your username, your email address, the app's name or a commonly used password.",
            "passwordShow": "Show password", "passwordHide": "Hide password",
        ],
        "ja": [
            "passwordMissing": "パスワードを入力してください。", "passwordTooShort": "パスワードは{{minimum}}文字以上にしてください。",
            "passwordTooLong": "パスワードは{{maximum}}文字以内にしてください。", "passwordInvalidCharacter": "パスワードに使用できない文字が含まれています。",
            "passwordContainsUsername": "パスワードにユーザー名を含めることはできません。",
            "passwordContextWord": "メールアドレスやアプリ名をパスワードにすることはできません。",
            "passwordCommon": "よく使われているパスワードです。推測されにくいものを選んでください。",
            "passwordReused": "直近{{count}}回に使ったパスワードは使えません。",
            "passwordRules": "{{minimum}}文字以上にしてください。ユーザー名、メールアドレス、アプリ名、よく使われるパスワードは使えません。",
            "passwordShow": "パスワードを表示", "passwordHide": "パスワードを隠す",
        ],
    ]

    /// Every error name `pages.json` may override.
    static let errorNames: Set<String> = Set(errors["en"]?.keys.map { $0 } ?? [])

    /// The error name of `problem` and its values; no name for the operator's own pattern message.
    static func errorKey(_ problem: PasswordPolicy.Problem) -> (String?, [String: String]) {
        switch problem {
        case .missing: ("passwordMissing", [:])
        case .tooShort(let minimum): ("passwordTooShort", ["minimum": String(minimum)])
        case .tooLong(let maximum): ("passwordTooLong", ["maximum": String(maximum)])
        case .invalidCharacter: ("passwordInvalidCharacter", [:])
        case .containsUsername: ("passwordContainsUsername", [:])
        case .contextWord: ("passwordContextWord", [:])
        case .common: ("passwordCommon", [:])
        case .reused(let count): ("passwordReused", ["count": String(count)])
        case .pattern: (nil, [:])
        }
    }

    /// The built-in pages' words.
    typealias Text = PageTemplates.Text

    static let texts: [String: [HostedPage.Kind: Text]] = [
        "en": [
            .emailVerified: Text(title: "Email verified", message: "Thank you, {{username}}. Your email address for {{appName}} is confirmed."),
            .verificationLinkInvalid: Text(
                title: "Link not valid", message: "This verification link is not valid. It may have been used already, or a newer link was sent."),
            .verificationLinkExpired: Text(
                title: "Link expired", message: "This verification link has expired. We can send you a new one.", button: "Send a new link"),
            .verificationLinkSent: Text(title: "Check your inbox", message: "A new verification link is on its way to your email address."),
            .notFound: Text(title: "Page not found", message: "There is nothing here."),
            .tooManyRequests: Text(
                title: "Too many attempts", message: "There were too many attempts from your network. Please wait {{minutes}} and try again."),
            .choosePassword: Text(
                title: "Choose a new password", message: "Enter a new password for {{username}}.", button: "Save password", field: "New password"),
            .passwordChanged: Text(title: "Password changed", message: "Your password has been changed. You can now log in with it."),
            .resetLinkInvalid: Text(
                title: "Link not valid",
                message: "This password reset link is not valid. It may have expired or been used already; ask for a new one in the app."),
            .signInFailed: Text(
                title: "Sign-in failed",
                message: "The sign-in to {{appName}} could not be completed (error {{code}}). Go back to the app and try again."),
            .requestReset: Text(
                title: "Reset your password",
                message: "Enter the email address of your {{appName}} account and we will send you a link to choose a new password.",
                button: "Send the link", field: "Email address"),
            .resetRequested: Text(
                title: "Check your inbox", message: "If an account uses that address, a link to choose a new password is on its way to it."),
        ],
        "ja": [
            .emailVerified: Text(title: "確認が完了しました", message: "{{username}} 様、{{appName}} のメールアドレスの確認が完了しました。"),
            .verificationLinkInvalid: Text(title: "無効なリンクです", message: "この確認リンクは無効です。すでに使用されたか、新しいリンクが送信されています。"),
            .verificationLinkExpired: Text(title: "リンクの有効期限が切れています", message: "この確認リンクは有効期限が切れています。新しいリンクをお送りできます。", button: "新しいリンクを送信する"),
            .verificationLinkSent: Text(title: "メールをご確認ください", message: "新しい確認リンクをメールアドレスに送信しました。"),
            .notFound: Text(title: "ページが見つかりません", message: "お探しのページは見つかりませんでした。"),
            .tooManyRequests: Text(title: "試行回数が多すぎます", message: "お使いのネットワークからの試行が多すぎます。{{minutes}}ほどお待ちいただいてから、もう一度お試しください。"),
            .choosePassword: Text(title: "新しいパスワードの設定", message: "{{username}} 様の新しいパスワードを入力してください。", button: "パスワードを保存する", field: "新しいパスワード"),
            .passwordChanged: Text(title: "パスワードを変更しました", message: "パスワードが変更されました。新しいパスワードでログインできます。"),
            .resetLinkInvalid: Text(title: "無効なリンクです", message: "このパスワード再設定リンクは無効です。有効期限が切れたか、すでに使用されています。アプリから再度お申し込みください。"),
            .signInFailed: Text(title: "サインインできませんでした", message: "{{appName}} へのサインインを完了できませんでした（エラー {{code}}）。アプリに戻って、もう一度お試しください。"),
            .requestReset: Text(
                title: "パスワードの再設定", message: "{{appName}} アカウントのメールアドレスを入力してください。新しいパスワードを設定するためのリンクをお送りします。",
                button: "リンクを送信する", field: "メールアドレス"),
            .resetRequested: Text(title: "メールをご確認ください", message: "そのアドレスを使うアカウントがあれば、新しいパスワードを設定するためのリンクをお送りしました。"),
        ],
    ]
}
