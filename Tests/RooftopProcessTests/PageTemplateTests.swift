import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import RooftopCore
import RooftopHTTP
import RooftopMail
import RooftopServices
import RooftopTesting
import Testing

/// The operator's own hosted pages: layout, style sheet, words and a language of their own,
/// from the templates directory; a file the pages cannot use stops the server from starting.
@Suite struct PageTemplateTests: LiveServerTest {
    /// A templates directory with a layout, a style sheet, English overrides and French.
    func operatorTemplates() throws -> URL {
        let dir = temporaryDataDirectory()
        let files = [
            "pages/layout.html": """
            <!DOCTYPE html><html lang="{{lang}}"><head><title>{{title}}</title><link rel="stylesheet" href="{{stylesheet}}"></head>
            <body class="acme"><header><img src="{{assets}}logo.svg" alt="">ACME · {{appName}}</header><h1>{{title}}</h1>{{content}}</body></html>
            """,
            "pages/rooftop.css": "body.acme { color: rebeccapurple; }",
            "pages/logo.svg": #"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>"#,
            "pages/notes.txt": "not an image: never served",
            "en/pages.json": #"{"choosePassword": {"title": "Pick a fresh password"}}"#,
            "fr/pages.json": """
            {"choosePassword": {"title": "Nouveau mot de passe", "message": "Choisissez un mot de passe pour {{username}}.",
              "button": "Enregistrer", "field": "Mot de passe"},
             "resetLinkInvalid": {"title": "Lien invalide", "message": "Ce lien n'est plus valable."},
             "errors": {"passwordTooShort": "Au moins {{minimum}} caractères."}}
            """,
        ]
        for (path, text) in files {
            let url = dir.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return dir
    }

    @Test func operatorPagesReplaceTheBuiltInOnes() async throws {
        let dir = try operatorTemplates()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pages = try PageTemplates(directory: dir.path)
        #expect(pages.languages == ["en", "ja", "fr"])
        let server = try SMTPTestServer()
        var logger = Logger(label: "mail")
        logger.logLevel = .critical
        let mail = AccountMail(
            queue: MailQueue(transport: SMTPClient(configuration: .init(host: "127.0.0.1", port: server.port, security: .none)), logger: logger),
            templates: .builtIn, locale: LanguageChooser(available: pages.languages), from: "a@example.com", appName: "Todo <b>",
            publicServerURL: publicURL, appId: testAppId)
        try await withServer(configure: { $1.pages = pages }, mail: mail) { (client: any TestClientProtocol) async throws in
            _ = try await call(client, .post, "/parse/users", body: #"{"username":"<i>ana</i>","password":"old password","email":"a@example.com"}"#)
            _ = try await call(client, .post, "/parse/requestPasswordReset", body: #"{"email":"a@example.com"}"#)
            let path = try await link(server, message: 1).path
            let token = String(path.split(separator: "=").last ?? "")

            let english = try await page(client, .get, path, language: "en")
            #expect(english.status == 200)
            #expect(
                english.html.contains(
                    #"<body class="acme"><header><img src="../logo.svg" alt="">ACME · Todo &lt;b&gt;</header><h1>Pick a fresh password</h1>"#))
            #expect(english.html.contains("Enter a new password for &lt;i&gt;ana&lt;/i&gt;."))  // untouched keys stay built in
            #expect(english.headers[.contentSecurityPolicy] == HostedPageTestValues.policy)

            let french = try await page(client, .get, path, language: "fr-FR, en;q=0.5")
            #expect(french.html.contains(#"<html lang="fr">"#) && french.html.contains("<h1>Nouveau mot de passe</h1>"))
            #expect(french.html.contains("Choisissez un mot de passe pour &lt;i&gt;ana&lt;/i&gt;."))
            #expect(french.html.contains(">Mot de passe</label>") && french.html.contains(">Enregistrer</button>"))
            let refused = try await page(
                client, .post, path.components(separatedBy: "?")[0], form: "token=\(token)&new_password=court", language: "fr")
            #expect(refused.status == 400 && refused.html.contains("Au moins 8 caractères."))
            // A French page without French words for it: English, in the operator's layout.
            let missing = try await page(client, .get, "/parse/apps/\(testAppId)/nothing", language: "fr")
            #expect(missing.status == 404 && missing.html.contains("<h1>Page not found</h1>") && missing.html.contains("ACME"))
            #expect(
                try await page(client, .get, "/parse/apps/\(testAppId)/request_password_reset?token=nope", language: "fr").html.contains(
                    "Lien invalide"))

            let css = try await page(client, .get, "/parse/apps/rooftop.css")
            #expect(css.html == "body.acme { color: rebeccapurple; }")
            #expect(css.headers[.contentType] == "text/css; charset=utf-8")
            let logo = try await page(client, .get, "/parse/apps/logo.svg")
            #expect(logo.status == 200 && logo.html.hasPrefix("<svg") && logo.headers[.contentType] == "image/svg+xml")
            #expect(logo.headers[.contentSecurityPolicy] == HostedPageTestValues.policy)  // no script inside an SVG either
            #expect(try await page(client, .get, "/parse/apps/notes.txt").status == 404)
        }
    }

    /// Each broken file is refused with its path and what is wrong.
    @Test func unusableFilesAreRefused() throws {
        let cases: [(path: String, text: String, says: String)] = [
            ("pages/layout.html", "<html><body>{{title}}</body></html>", "no {{content}} placeholder"),
            ("en/pages.json", "[1, 2]", "is not a JSON object of pages, each an object of strings"),
            ("en/pages.json", #"{"emailVerifed": {"title": "Done"}}"#, #"unknown page "emailVerifed""#),
            ("de/pages.json", #"{"emailVerified": {"titel": "Fertig"}}"#, "unknown keys [\"titel\"] in \"emailVerified\""),
            ("en/pages.json", #"{"errors": {"tooShort": "x"}}"#, "unknown error names [\"tooShort\"]"),
            ("pages/my logo.png", "png", "image names may only use letters, digits, - and _"),
            ("pages/big.png", String(repeating: "x", count: (1 << 20) + 1), "is larger than 1 MiB"),
        ]
        for (path, text, says) in cases {
            let dir = temporaryDataDirectory()
            defer { try? FileManager.default.removeItem(at: dir) }
            let url = dir.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
            #expect {
                _ = try PageTemplates(directory: dir.path)
            } throws: { error in
                "\(error)".contains(url.path) && "\(error)".contains(says)
            }
        }
        #expect(try PageTemplates(directory: "/nonexistent/templates").layout == PageTemplates.builtIn.layout)
    }
}

/// Values the hosted-page tests compare with.
enum HostedPageTestValues {
    static let policy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'"
}
