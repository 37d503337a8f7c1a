import Mustache

/// Mustache templates compiled once from their sources (files embedded at build time): the
/// hosted pages' (`PageMarkup`) and the console's (`ConsoleTemplates`). Every `{{value}}` is
/// HTML-escaped by swift-mustache; `{{{value}}}` is for markup a renderer built itself.
package struct TemplateLibrary: Sendable {
    /// Every template's text, by name (the name partials use: `{{>name}}`).
    package let sources: [String: String]
    private let library: MustacheLibrary

    /// Compiles `sources`; a template that fails to parse is missing (`broken`), which the
    /// template tests catch and the hosted pages refuse at start.
    package init(sources: [String: String]) {
        self.sources = sources
        var library = MustacheLibrary()
        for (name, text) in sources { try? library.register(text, named: name) }
        self.library = library
    }

    /// Names of templates that did not compile (none, unless one was broken).
    package var broken: [String] { sources.keys.filter { library.getTemplate(named: $0) == nil }.sorted() }

    /// Renders `name` with `values`; empty when the template is missing.
    package func render(_ name: String, _ values: [String: Any]) -> String {
        library.render(values, withTemplate: name) ?? ""
    }

    /// The compiled template `name`, rendered by the caller with its own values.
    func template(named name: String) -> MustacheTemplate? { library.getTemplate(named: name) }
}
