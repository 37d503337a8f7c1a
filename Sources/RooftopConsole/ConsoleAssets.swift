/// The console's style sheet and script (`Resources/console.css`, `Resources/console.js`),
/// embedded in the binary and served by it (no external request).
enum ConsoleAssets {
    static let stylesheet = String(decoding: PackageResources.console_css, as: UTF8.self)
    static let script = String(decoding: PackageResources.console_js, as: UTF8.self)
}
