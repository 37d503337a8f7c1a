import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Testing

@testable import RooftopHTTP

/// Every hosted page, in English, Japanese and an operator's French, with the built-in templates
/// and with an operator's templates directory, byte for byte against the pages recorded in
/// `Tests/Fixtures/hosted-pages` (recorded from the string-literal renderer before the pages
/// moved to Mustache, so the move provably changed no page). `ROOFTOP_RECORD_PAGES=1` writes
/// them anew instead of comparing.
@Suite struct HostedPageSnapshotTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/hosted-pages")

    /// An operator's directory: the layout as docs/email.md documents it (every placeholder, one
    /// with spaces, one unknown), a style sheet and words in English and French.
    static func operatorDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pages-\(UUID().uuidString)")
        let files = [
            "pages/layout.html": """
            <!DOCTYPE html>
            <html lang="{{lang}}"><head><title>{{ title }} – {{appName}}</title>
            <link rel="stylesheet" href="{{stylesheet}}"></head>
            <body class="acme"><img src="{{assets}}logo.svg" alt="">{{unknown}}
            <h1>{{title}}</h1>
            {{content}}
            </body></html>
            """,
            "pages/rooftop.css": "body.acme { color: rebeccapurple; }",
            "en/pages.json": #"{"choosePassword": {"title": "Pick a <fresh> password"}, "errors": {"passwordShow": "Show & tell"}}"#,
            "fr/pages.json": """
            {"choosePassword": {"title": "Nouveau mot de passe", "message": "Pour <b>{{username}}</b> sur {{appName}}.",
              "button": "Enregistrer", "field": "Mot de passe"},
             "errors": {"passwordRules": "Au moins {{minimum}} caractères."}}
            """,
        ]
        for (path, text) in files {
            let url = dir.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return dir
    }

    /// Every kind plainly, and the forms in each of their states.
    static func pages(language: String) -> [(name: String, page: HostedPage, stylesheet: String)] {
        let app = "Todo <b>&'\""
        let values = ["username": "<i>ana</i>", "code": "141", "minutes": "2 minutes"]
        var pages = HostedPage.Kind.allCases.map { kind in
            (kind.rawValue, HostedPage(kind: kind, language: language, appName: app, values: values), "../rooftop.css")
        }
        var expired = HostedPage(kind: .verificationLinkExpired, language: language, appName: app)
        expired.form = ("resend_verification_email", ["token": "a&b\"<c>"])
        pages.append(("verificationLinkExpired-form", expired, "rooftop.css"))
        var request = HostedPage(kind: .requestReset, language: language, appName: app)
        request.form = ("forgot_password", [:])
        pages.append(("requestReset-form", request, "../../rooftop.css"))
        var full = HostedPage(kind: .choosePassword, language: language, appName: app, values: values)
        full.form = ("request_password_reset", ["token": "t0k'en", "z": "last"])
        full.rules = "At least 8 <chars>."
        full.reveal = ("Show \"it\"", "Hide")
        full.accountName = "<i>ana</i>"
        pages.append(("choosePassword-form", full, "../rooftop.css"))
        full.fieldError = "Too <short>"
        pages.append(("choosePassword-error", full, "../rooftop.css"))
        full.rules = nil
        full.reveal = nil
        full.accountName = nil
        pages.append(("choosePassword-bare-error", full, "../rooftop.css"))
        full.fieldError = nil
        pages.append(("choosePassword-bare", full, "../rooftop.css"))
        return pages
    }

    static func body(_ response: Response) async throws -> String {
        let collector = Collector()
        try await response.body.write(collector)
        return String(buffer: collector.buffer)
    }

    /// Collects a response body as it is written.
    final class Collector: ResponseBodyWriter {
        var buffer = ByteBuffer()
        func write(_ part: ByteBuffer) async throws { buffer.writeImmutableBuffer(part) }
        func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }

    /// name → rendered text, for every page and both template sets.
    static func rendered() async throws -> [String: String] {
        let dir = try operatorDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let sets = [("builtin", PageTemplates.builtIn), ("operator", try PageTemplates(directory: dir.path))]
        var out: [String: String] = [:]
        for (set, templates) in sets {
            for language in ["en", "ja", "fr"] {
                for (name, page, stylesheet) in pages(language: language) {
                    out["\(set)-\(language)-\(name).html"] = try await body(page.response(templates, stylesheet: stylesheet))
                }
            }
            out["\(set)-rooftop.css"] = templates.stylesheet
        }
        out["rooftop.js"] = PageMarkup.script
        return out
    }

    @Test func everyPageIsUnchanged() async throws {
        let pages = try await Self.rendered()
        if ProcessInfo.processInfo.environment["ROOFTOP_RECORD_PAGES"] != nil {
            try FileManager.default.createDirectory(at: Self.fixtures, withIntermediateDirectories: true)
            for (name, text) in pages { try text.write(to: Self.fixtures.appendingPathComponent(name), atomically: true, encoding: .utf8) }
            return
        }
        let recorded = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path)
        #expect(Set(recorded) == Set(pages.keys))
        for (name, text) in pages.sorted(by: { $0.key < $1.key }) {
            let expected = try String(contentsOf: Self.fixtures.appendingPathComponent(name), encoding: .utf8)
            #expect(text == expected, "\(name) differs from the recorded page")
        }
    }
}

/// Operators' layouts under Mustache: the documented placeholders as before, Mustache's own
/// tags now, and a layout Mustache cannot read refused at start with where.
@Suite struct HostedPageLayoutTests {
    func templates(layout: String) throws -> PageTemplates {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("layout-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("pages"), withIntermediateDirectories: true)
        try layout.write(to: dir.appendingPathComponent("pages/layout.html"), atomically: true, encoding: .utf8)
        return try PageTemplates(directory: dir.path)
    }

    func render(_ templates: PageTemplates) async throws -> String {
        let page = HostedPage(kind: .emailVerified, language: "en", appName: "<App>", values: ["username": "a&b"])
        return try await HostedPageSnapshotTests.body(page.response(templates, stylesheet: "../rooftop.css"))
    }

    @Test func everyBuiltInTemplateCompilesAndIsListed() throws {
        #expect(PageMarkup.library.broken.isEmpty)
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/RooftopHTTP/Resources/pages")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".mustache") }
        #expect(Set(files.map { String($0.dropLast(".mustache".count)) }) == Set(PageMarkup.library.sources.keys))
    }

    @Test func contentIsPlacedRawAndTheRestEscaped() async throws {
        let expected = #"<p>&lt;App&gt;</p><h1>Email verified</h1><p>Thank you, a&amp;b. Your email address for &lt;App&gt; is confirmed.</p>"#
        for content in ["{{content}}", "{{{content}}}"] {
            let html = try await render(try templates(layout: "<p>{{appName}}</p><h1>{{ title }}</h1>\(content)"))
            #expect(html == expected, "\(content)")
        }
        // Mustache's own tags work in a layout now: a section over a value.
        let sectioned = try await render(try templates(layout: "{{#title}}<h1>{{title}}</h1>{{/title}}{{^nothing}}!{{/nothing}}{{content}}"))
        #expect(sectioned.hasPrefix("<h1>Email verified</h1>!<p>"))
    }

    @Test func aLayoutMustacheCannotReadIsRefused() throws {
        for layout in ["<html>{{#open}}{{content}}</html>", "<html>{{content}}{{/close}}</html>"] {
            #expect {
                _ = try templates(layout: layout)
            } throws: { error in
                "\(error)".contains("pages/layout.html is not a valid Mustache template: ") && "\(error)".contains("at line 1")
            }
        }
        #expect(PageTemplates.mustacheLayout("a {{content}} b {{{content}}} c") == "a {{{content}}} b {{{content}}} c")
    }
}
