import Foundation
import Mustache
import RooftopCore
import RooftopServices

/// What the hosted pages look like and say: a layout, a style sheet, and each page's words per
/// language. Built in (English and Japanese); an operator overrides any part from files.
///
/// In a templates directory (the same one as the mail templates):
/// `pages/layout.html`, a Mustache template like the built-in `Resources/pages/layout.mustache`
/// (values `lang title appName stylesheet content assets`, `assets` the relative path of images;
/// `{{content}}`, the one raw value, is read as `{{{content}}}`: see `mustacheLayout`), `pages/rooftop.css`, images in `pages/`, and `<lang>/pages.json`, which maps page names (`emailVerified`,
/// `choosePassword`, …) to `{"title": …, "message": …, "button": …, "field": …}` and
/// `"errors"` to password-policy messages (`passwordTooShort`, …). Anything not given keeps its
/// built-in text; a language of its own falls back to English key by key.
package struct PageTemplates: Sendable {
    /// A page's words.
    package struct Text: Sendable, Equatable {
        /// The heading (and window title).
        package var title: String
        /// The paragraph; `{{username}}` and `{{appName}}` are filled in, HTML-escaped.
        package var message: String
        /// The button of the page's form, on pages that have one.
        package var button: String?
        /// The label of the password field, on forms that have one.
        package var field: String?

        /// Creates a text.
        package init(title: String, message: String, button: String? = nil, field: String? = nil) {
            self.title = title
            self.message = message
            self.button = button
            self.field = field
        }
    }

    /// The page shell's text; `{{content}}` is the page's paragraph and form, built by the server.
    package private(set) var layout: String
    /// The shell compiled; nil for the built-in one (`PageMarkup`'s `layout`).
    private var layoutTemplate: MustacheTemplate?
    /// Served as `<mount>/apps/rooftop.css`.
    package var stylesheet: String
    /// Language → page name → words.
    package var texts: [String: [String: Text]]
    /// Language → error name → message (`{{minimum}}`, `{{maximum}}`, `{{count}}` filled in).
    package var errors: [String: [String: String]]
    /// Images from `pages/` (a logo, a background), served as `<mount>/apps/<name>`: name →
    /// content type and bytes.
    package var assets: [String: (type: String, bytes: [UInt8])] = [:]

    /// The image types served, by file extension.
    static let assetTypes = [
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "svg": "image/svg+xml", "webp": "image/webp", "ico": "image/x-icon",
    ]
    /// The largest image served, in bytes: everything is held in memory.
    static let maxAssetSize = 1 << 20

    /// Languages with words of their own.
    package var languages: Set<String> { Set(texts.keys).union(errors.keys) }

    /// The built-in layout, style sheet and words.
    package static var builtIn: PageTemplates {
        PageTemplates(
            layout: PageMarkup.sources["layout"] ?? "", stylesheet: PageMarkup.stylesheet,
            texts: HostedPageTemplates.texts.mapValues { Dictionary(uniqueKeysWithValues: $0.map { ($0.key.rawValue, $0.value) }) },
            errors: HostedPageTemplates.errors)
    }

    init(layout: String, stylesheet: String, texts: [String: [String: Text]], errors: [String: [String: String]]) {
        self.layout = layout
        self.stylesheet = stylesheet
        self.texts = texts
        self.errors = errors
    }

    /// The built-in pages, overridden by files under `directory` when given. Throws (and the
    /// server refuses to start) on a file it cannot use, naming the file and the reason.
    package init(directory: String?) throws {
        // Only a broken build gets here: the template tests compile every built-in template.
        guard PageMarkup.library.broken.isEmpty else {
            throw PageTemplateError("the built-in page templates \(PageMarkup.library.broken) do not compile")
        }
        self = .builtIn
        guard let directory else { return }
        let layoutPath = "\(directory)/pages/layout.html"
        if let layout = try Self.read(layoutPath) {
            guard layout.contains("{{content}}") else { throw PageTemplateError("\(layoutPath) has no {{content}} placeholder") }
            do {
                layoutTemplate = try MustacheTemplate(string: Self.mustacheLayout(layout))
            } catch {
                let at = (error as? MustacheTemplate.ParserError).map {
                    ": \($0.error) at line \($0.context.lineNumber), column \($0.context.columnNumber)"
                }
                throw PageTemplateError("\(layoutPath) is not a valid Mustache template\(at ?? "")")
            }
            self.layout = layout
        }
        if let stylesheet = try Self.read("\(directory)/pages/rooftop.css") { self.stylesheet = stylesheet }
        try loadAssets(from: "\(directory)/pages")
        let languages = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for language in languages.sorted() where (2...8).contains(language.count) && language.allSatisfy({ $0 >= "a" && $0 <= "z" }) {
            let path = "\(directory)/\(language)/pages.json"
            guard let data = try Self.read(path).map({ Data($0.utf8) }) else { continue }
            let file: [String: [String: String]]
            do {
                file = try JSONDecoder().decode([String: [String: String]].self, from: data)
            } catch {
                throw PageTemplateError("\(path) is not a JSON object of pages, each an object of strings")
            }
            for (name, entry) in file { try merge(name, entry, language: language, path: path) }
        }
    }

    /// Every image in `directory` whose name is plain (letters, digits, `-`, `_`, one dot).
    private mutating func loadAssets(from directory: String) throws {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            let parts = name.lowercased().split(separator: ".")
            guard parts.count == 2, let type = Self.assetTypes[String(parts[1])] else { continue }
            guard parts[0].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                throw PageTemplateError("\(directory)/\(name): image names may only use letters, digits, - and _")
            }
            guard let data = FileManager.default.contents(atPath: "\(directory)/\(name)") else {
                throw PageTemplateError("\(directory)/\(name) cannot be read")
            }
            guard data.count <= Self.maxAssetSize else { throw PageTemplateError("\(directory)/\(name) is larger than 1 MiB") }
            assets[name] = (type, [UInt8](data))
        }
    }

    private mutating func merge(_ name: String, _ entry: [String: String], language: String, path: String) throws {
        if name == "errors" {
            let unknown = Set(entry.keys).subtracting(HostedPageTemplates.errorNames)
            guard unknown.isEmpty else { throw PageTemplateError("\(path): unknown error names \(unknown.sorted())") }
            errors[language, default: [:]].merge(entry) { $1 }
        } else {
            guard HostedPage.Kind(rawValue: name) != nil else {
                throw PageTemplateError("\(path): unknown page \"\(name)\"; pages are \(HostedPage.Kind.allCases.map(\.rawValue))")
            }
            let unknown = Set(entry.keys).subtracting(["title", "message", "button", "field"])
            guard unknown.isEmpty else { throw PageTemplateError("\(path): unknown keys \(unknown.sorted()) in \"\(name)\"") }
            let base = texts[language]?[name] ?? texts["en"]?[name] ?? Text(title: "", message: "")
            texts[language, default: [:]][name] = Text(
                title: entry["title"] ?? base.title, message: entry["message"] ?? base.message,
                button: entry["button"] ?? base.button, field: entry["field"] ?? base.field)
        }
    }

    /// `layout` as Mustache source. Layouts were filled by `TextTemplate`, where `{{content}}`
    /// was the one value placed as HTML and every other placeholder was escaped: Mustache escapes
    /// `{{name}}` the same way (`& < > " '`), so only `{{content}}` becomes `{{{content}}}`,
    /// unless it is already written so. Every layout that uses braces only for the documented
    /// placeholders renders as it did.
    static func mustacheLayout(_ layout: String) -> String {
        var out = ""
        var rest = layout[...]
        while let found = rest.range(of: "{{content}}") {
            let before = rest[..<found.lowerBound]
            let alreadyRaw = before.hasSuffix("{") && rest[found.upperBound...].hasPrefix("}")
            out += before + (alreadyRaw ? "{{content}}" : "{{{content}}}")
            rest = rest[found.upperBound...]
        }
        return out + rest
    }

    /// The page shell filled: every value HTML-escaped but `content`, the server's markup.
    func render(lang: String, title: String, appName: String, stylesheet: String, content: String, assets: String) -> String {
        let values = ["lang": lang, "title": title, "appName": appName, "stylesheet": stylesheet, "content": content, "assets": assets]
        return (layoutTemplate ?? PageMarkup.library.template(named: "layout"))?.render(values) ?? ""
    }

    /// The words of `page` in `language`, else in English.
    func text(_ page: HostedPage.Kind, language: String) -> Text {
        texts[language]?[page.rawValue] ?? texts["en"]?[page.rawValue] ?? Text(title: "", message: "")
    }

    /// The message `name` of the password texts in `language`, else in English, filled with `values`.
    func phrase(_ name: String, language: String, _ values: [String: String] = [:]) -> String {
        TextTemplate.fill(errors[language]?[name] ?? errors["en"]?[name] ?? "", values)
    }

    /// A password problem in `language`, else in English, else the API's message.
    func describe(_ problem: PasswordPolicy.Problem, language: String) -> String {
        let (name, values) = HostedPageTemplates.errorKey(problem)
        guard let name, let template = errors[language]?[name] ?? errors["en"]?[name] else { return problem.error.message }
        return TextTemplate.fill(template, values)
    }

    private static func read(_ path: String) throws -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw PageTemplateError("\(path) cannot be read as UTF-8 text")
        }
    }
}

/// A page-template file the server cannot use.
package struct PageTemplateError: Error, CustomStringConvertible {
    /// What is wrong, naming the file.
    package var description: String
    init(_ description: String) { self.description = description }
}
