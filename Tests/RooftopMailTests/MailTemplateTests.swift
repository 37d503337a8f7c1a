import Foundation
import RooftopCore
import RooftopMail
import Testing

@Suite struct MailTemplateTests {
    @Test func localeComesFromUserThenHeaderThenDefault() {
        let locale = LanguageChooser()
        #expect(locale.choose(userLocale: "ja-JP", acceptLanguage: "en") == "ja")
        #expect(locale.choose(userLocale: "ja_JP", acceptLanguage: nil) == "ja")
        #expect(locale.choose(userLocale: nil, acceptLanguage: "fr-CH, fr;q=0.9, ja;q=0.8, en;q=0.7") == "ja")
        #expect(locale.choose(userLocale: nil, acceptLanguage: "en;q=0.5, ja;q=0.9") == "ja")
        #expect(locale.choose(userLocale: nil, acceptLanguage: "ja;q=0, en") == "en")
        #expect(locale.choose(userLocale: "de", acceptLanguage: "fr") == "en")
        // Never a path, never a made-up language.
        #expect(locale.choose(userLocale: "../../etc/passwd", acceptLanguage: "../ja") == "en")
        #expect(locale.choose(userLocale: "ja/../../x", acceptLanguage: nil) == "en")
        #expect(LanguageChooser(fallback: "ja").choose(userLocale: nil, acceptLanguage: "") == "ja")
    }

    @Test func builtInTemplatesInBothLanguagesEscapeHTML() throws {
        let templates = try MailTemplates()
        #expect(templates.languages == ["en", "ja"])
        let values = [
            "appName": "Todo\r\nBcc: x", "link": "https://example.com/parse/apps/app/verify_email?token=abc&x=1",
            "username": "<script>alert(1)</script>",
            "email": "ana@example.com", "expires": MailTemplates.expiryPhrase(seconds: 3600, language: "en"),
        ]
        let en = templates.render(.verifyEmail, language: "en", values: values)
        #expect(en.subject == "Confirm your email for TodoBcc: x")
        #expect(en.text.contains("Hi <script>alert(1)</script>,"))
        #expect(en.text.contains("https://example.com/parse/apps/app/verify_email?token=abc&x=1"))
        #expect(en.text.contains("The link works once within 1 hour."))
        let html = try #require(en.html)
        #expect(!html.contains("<script>"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("href=\"https://example.com/parse/apps/app/verify_email?token=abc&amp;x=1\""))
        let ja = templates.render(
            .passwordReset, language: "ja", values: values.merging(["expires": MailTemplates.expiryPhrase(seconds: 86400, language: "ja")]) { $1 })
        #expect(ja.subject == "TodoBcc: x パスワードの再設定")
        #expect(ja.text.contains("このリンクは一度だけ使えます（24時間以内）。"))
        #expect(ja.html?.contains("lang=\"ja\"") == true)
    }

    @Test func operatorTemplatesOverrideAndAddLanguages() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-templates-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        for language in ["en", "fr", "..", "x y"] {
            try? FileManager.default.createDirectory(at: dir.appendingPathComponent(language), withIntermediateDirectories: true)
        }
        try "Subject: Welcome to {{appName}}\n\nClick {{link}}".write(
            to: dir.appendingPathComponent("en/verify_email.txt"), atomically: true, encoding: .utf8)
        try "Subject: Réinitialiser\r\n\r\nLien : {{link}}".write(
            to: dir.appendingPathComponent("fr/password_reset.txt"), atomically: true, encoding: .utf8)
        try "<b>{{link}}</b>".write(to: dir.appendingPathComponent("fr/password_reset.html"), atomically: true, encoding: .utf8)
        let templates = try MailTemplates(directory: dir.path)
        #expect(templates.languages == ["en", "ja", "fr"])
        let en = templates.render(.verifyEmail, language: "en", values: ["appName": "Todo", "link": "L"])
        #expect(en == MailTemplates.Template(subject: "Welcome to Todo", text: "Click L", html: nil))
        #expect(templates.render(.passwordReset, language: "fr", values: ["link": "<L>"]).html == "<b>&lt;L&gt;</b>")
        // A language without a given template falls back to English.
        #expect(templates.render(.verifyEmail, language: "fr", values: ["appName": "Todo", "link": "L"]).text == "Click L")

        try "no subject line".write(to: dir.appendingPathComponent("en/password_reset.txt"), atomically: true, encoding: .utf8)
        #expect(throws: MailError.self) { try MailTemplates(directory: dir.path) }
    }
}
