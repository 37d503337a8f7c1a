/// Who may upload files, which, and how large (Parse's `fileUpload` and `maxUploadSize`).
package struct FilesConfiguration: Sendable {
    /// The largest upload in bytes; larger is 413, before any of it is read when `Content-Length`
    /// declares it (Parse's `maxUploadSize`, 20 MB).
    package var maxUploadSize: Int = 20 * 1024 * 1024
    /// Whether callers without a session may upload (Parse's default: no).
    package var enableForPublic = false
    /// Whether anonymous users (`authData.anonymous` only) may upload (Parse's default: no).
    package var enableForAnonymousUser = false
    /// Whether signed-in users may upload (Parse's default: yes).
    package var enableForAuthenticatedUser = true
    /// Regular expressions an upload's extension must match (one of them; `*` matches all), as
    /// Parse's `fileUpload.fileExtensions`. The master key is not held to them. The default
    /// refuses what a browser would run: HTML, SVG, XML, scripts and executables.
    package var fileExtensions: [String] = [Self.safeExtensions]

    /// Parse's rule with Rooftop's list of what never to accept from a client by default.
    package static let safeExtensions =
        "^(?!(?i:x?html?|xht|shtml|mht|mhtml|svgz?|xml|xsl|xslt|js|mjs|cjs|jsx|ts|wasm|vbs|ps1|sh|bash|zsh|csh|bat|cmd|com|exe|msi|dll|"
        + "so|dylib|scr|jar|apk|app|dmg|pif|cpl|hta|php\\d?|phtml|jsp|aspx?|cgi|pl|py|rb|swf)$)"

    /// Whether deleting a user deletes the files its own object referred to that no other object
    /// refers to (Rooftop's own option; finding out reads every object).
    package var deleteUserFiles = false

    /// Who may download a file: everyone with its URL (`public`, as Parse), or only holders of a
    /// signed URL that has not expired (`signed`; the master key needs none).
    package var access: FileAccess = .public
    /// How long a signed URL works, in seconds (`fileURLLifetime`).
    package var signedURLLifetime = 3600
    /// The secret signed URLs are keyed from (`fileKey`); `nil`: the master key. Every node
    /// must share it.
    package var fileKey: String?

    /// The defaults.
    package init() {}
}

/// `fileAccess`: whether a file's URL is the capability to read it for ever (Parse) or a signed
/// one that expires.
package enum FileAccess: String, Sendable, CaseIterable {
    /// Anyone with the URL, as Parse.
    case `public`
    /// Signed URLs that expire, rendered only into answers the caller may read.
    case signed
}
