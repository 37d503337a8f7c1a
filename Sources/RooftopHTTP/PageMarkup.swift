/// The hosted pages' markup as Mustache templates, like the console's: the layout, each page's
/// content (`content`, with the partials `emailField` and `passwordField`), the style sheet and
/// the script are files in `Resources/pages/`, embedded in the binary at build time. Every
/// `{{value}}` is HTML-escaped by swift-mustache; the raw `{{{content}}}` and `{{{message}}}`
/// are this renderer's own output and the page's words (filled with escaped values).
enum PageMarkup {
    /// The compiled templates; one that fails to parse is missing, and `PageTemplates(directory:)`
    /// then refuses to start the server (`library.broken`).
    static let library = TemplateLibrary(sources: sources)

    /// The layout as written; the content templates joined into one line (`oneLine`), so a
    /// page's markup stays what it was when it was built in Swift.
    static let sources: [String: String] = [
        "layout": text(PackageResources.layout_mustache),
        "content": oneLine(text(PackageResources.content_mustache)),
        "emailField": oneLine(text(PackageResources.emailField_mustache)),
        "passwordField": oneLine(text(PackageResources.passwordField_mustache)),
        "passkeys": oneLine(text(PackageResources.passkeys_mustache)),
    ]

    /// Served at `/apps/rooftop.css`, so the policy needs no inline style or script.
    static let stylesheet = text(PackageResources.rooftop_css)

    /// Served at `/apps/rooftop.js`: reveals the show-password toggle and flips the field's
    /// type. Without script the page works the same, without the toggle.
    static let script = text(PackageResources.rooftop_js)

    /// Served at `/apps/rooftop-passkeys.js`: everything the passkey page does.
    static let passkeyScript = text(PackageResources.rooftop_passkeys_js)

    /// A resource's text without the file's last line break (the pages never ended with one).
    static func text(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }

    /// `text` without its line breaks and the indentation after each: the templates are written
    /// one element a line, the pages carry no whitespace between the elements.
    static func oneLine(_ text: String) -> String {
        var out = ""
        var skipping = false
        for character in text {
            if character == "\n" {
                skipping = true
            } else if skipping, character == " " {
                continue
            } else {
                skipping = false
                out.append(character)
            }
        }
        return out
    }
}
