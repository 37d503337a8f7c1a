import Foundation

/// Content types of uploads: which type a file is stored as, and which are safe to show inline.
///
/// A type is never taken from the name alone: the declared type (or the name's) is checked
/// against the file's first bytes when it is one a browser would display, and a file whose bytes
/// do not match is stored as `application/octet-stream`.
package enum FileTypes {
    /// Common extensions and their types.
    static let byExtension: [String: String] = [
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp", "avif": "image/avif",
        "bmp": "image/bmp", "ico": "image/x-icon", "heic": "image/heic", "svg": "image/svg+xml", "tif": "image/tiff", "tiff": "image/tiff",
        "pdf": "application/pdf", "txt": "text/plain", "csv": "text/csv", "md": "text/markdown", "json": "application/json",
        "html": "text/html", "htm": "text/html", "xhtml": "application/xhtml+xml", "xml": "application/xml", "js": "text/javascript",
        "css": "text/css", "mp3": "audio/mpeg", "m4a": "audio/mp4", "aac": "audio/aac", "wav": "audio/wav", "ogg": "audio/ogg",
        "oga": "audio/ogg", "flac": "audio/flac", "mp4": "video/mp4", "m4v": "video/mp4", "mov": "video/quicktime", "webm": "video/webm",
        "ogv": "video/ogg", "zip": "application/zip", "gz": "application/gzip", "tar": "application/x-tar", "bin": "application/octet-stream",
    ]

    /// The extension a type is written with, for names that have none (Parse adds it).
    static let extensionByType: [String: String] = [
        "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp", "image/avif": "avif", "image/bmp": "bmp",
        "image/x-icon": "ico", "image/heic": "heic", "image/svg+xml": "svg", "image/tiff": "tiff", "application/pdf": "pdf",
        "text/plain": "txt", "text/csv": "csv", "text/markdown": "md", "application/json": "json", "text/html": "html",
        "application/xhtml+xml": "xhtml", "application/xml": "xml", "text/xml": "xml", "text/javascript": "js",
        "application/javascript": "js", "text/css": "css", "audio/mpeg": "mp3", "audio/mp4": "m4a", "audio/aac": "aac", "audio/wav": "wav",
        "audio/ogg": "ogg", "audio/flac": "flac", "video/mp4": "mp4", "video/quicktime": "mov", "video/webm": "webm", "video/ogg": "ogv",
        "application/zip": "zip", "application/gzip": "gz",
    ]

    /// The type of a file named `name` (by its extension), if known.
    package static func type(ofName name: String) -> String? {
        guard let ext = fileExtension(name) else { return nil }
        return byExtension[ext.lowercased()]
    }

    /// The part of `name` after its last dot, when there is one.
    package static func fileExtension(_ name: String) -> String? {
        guard let dot = name.lastIndex(of: "."), name.index(after: dot) < name.endIndex else { return nil }
        return String(name[name.index(after: dot)...])
    }

    /// The extension a type stands for: the usual one, else its subtype before any `+suffix`.
    package static func extensionOf(type: String) -> String? {
        if let known = extensionByType[type] { return known }
        guard let slash = type.firstIndex(of: "/") else { return nil }
        let subtype = type[type.index(after: slash)...].split(separator: "+").first.map(String.init) ?? ""
        return subtype.isEmpty ? nil : subtype
    }

    /// A `Content-Type` header as a bare lowercase `type/subtype` (parameters dropped); `nil`
    /// when it is missing or not a media type.
    package static func normalized(_ header: String?) -> String? {
        guard let header else { return nil }
        let bare = header.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        let parts = bare.split(separator: "/", omittingEmptySubsequences: false)
        let token = Set("abcdefghijklmnopqrstuvwxyz0123456789!#$&^_.+-")
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(token.contains) }), bare.count <= 127 else { return nil }
        return bare
    }

    /// Types a browser may display inline: raster images, audio, video and PDF (never SVG, HTML
    /// or anything that runs script).
    package static func isInline(_ type: String) -> Bool {
        signatures[type] != nil || type.hasPrefix("audio/") || type.hasPrefix("video/")
    }

    /// The type a file is stored (and served) as: `declared` when given, else by the name, else
    /// `application/octet-stream`; a type shown inline whose first bytes (`head`) do not match
    /// it — or that look like markup — becomes `application/octet-stream`.
    package static func storedType(declared: String?, name: String, head: [UInt8]) -> String {
        let claimed = declared.flatMap { $0 == "application/octet-stream" ? nil : $0 } ?? type(ofName: name) ?? "application/octet-stream"
        guard isInline(claimed) else { return claimed }
        if let signature = signatures[claimed], !signature(head) { return "application/octet-stream" }
        if looksLikeMarkup(head) { return "application/octet-stream" }
        return claimed
    }

    /// The first bytes each inline image and document type must start with.
    static let signatures: [String: @Sendable ([UInt8]) -> Bool] = [
        "image/png": { $0.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) },
        "image/jpeg": { $0.starts(with: [0xFF, 0xD8, 0xFF]) },
        "image/gif": { $0.starts(with: Array("GIF87a".utf8)) || $0.starts(with: Array("GIF89a".utf8)) },
        "image/webp": { $0.count >= 12 && $0.starts(with: Array("RIFF".utf8)) && Array($0[8..<12]) == Array("WEBP".utf8) },
        "image/bmp": { $0.starts(with: Array("BM".utf8)) },
        "image/x-icon": { $0.starts(with: [0, 0, 1, 0]) },
        "image/avif": { $0.count >= 12 && Array($0[4..<8]) == Array("ftyp".utf8) },
        "image/heic": { $0.count >= 12 && Array($0[4..<8]) == Array("ftyp".utf8) },
        "application/pdf": { $0.starts(with: Array("%PDF-".utf8)) },
    ]

    /// Whether the first non-blank byte (after a UTF-8 byte order mark) is `<`.
    static func looksLikeMarkup(_ head: [UInt8]) -> Bool {
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0x0C].contains($0) }
        return first == UInt8(ascii: "<")
    }
}
