import Foundation
import HTTPTypes
import RooftopCore
import RooftopServices

/// The headers of a served file, and the conditional and range requests it answers.
///
/// Uploaded files come from clients, and Parse has shipped stored-XSS advisories through
/// uploaded HTML and SVG: every file answer says `nosniff` (the browser keeps the declared
/// type), carries a sandboxing `Content-Security-Policy` (a page that does open runs no script
/// and has no origin), and anything but raster images, audio, video and PDF is an attachment.
enum FileHeaders {
    /// Where a shown file may load from: nothing; and a sandbox, so script never runs.
    static let contentSecurityPolicy = "default-src 'none'; sandbox"
    /// Like every answer of the API: a file belongs to a user, and a deleted one must not live
    /// on in a shared cache. Conditional requests (ETag, Last-Modified) still answer 304.
    static let cacheControl = "no-store"

    /// Type, validators and safety headers of `info`.
    static func headers(for info: StoredFileInfo) -> HTTPFields {
        var headers = HTTPFields()
        headers[.contentType] = info.contentType
        headers[.eTag] = info.etag
        headers[.lastModified] = httpDate(info.createdAt)
        headers[.acceptRanges] = "bytes"
        headers[.cacheControl] = cacheControl
        headers[.xContentTypeOptions] = "nosniff"
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        if !FileTypes.isInline(info.contentType) {
            // The name's characters are an allow-list without quotes or backslashes.
            headers[.contentDisposition] = "attachment; filename=\"\(readableName(info.name))\""
        }
        return headers
    }

    /// The original name, without the random prefix.
    static func readableName(_ stored: String) -> String {
        guard let underscore = stored.firstIndex(of: "_"), stored.distance(from: stored.startIndex, to: underscore) == 32 else { return stored }
        return String(stored[stored.index(after: underscore)...])
    }

    /// Whether the client's copy is current: `If-None-Match` names the tag (or `*`), or, without
    /// it, `If-Modified-Since` is no earlier than the file.
    static func notModified(_ info: StoredFileInfo, _ request: HTTPFields) -> Bool {
        if let tags = request[.ifNoneMatch] {
            return tags.split(separator: ",").contains { tag in
                let tag = tag.trimmingCharacters(in: .whitespaces)
                return tag == "*" || tag == info.etag || tag == "W/" + info.etag
            }
        }
        guard let since = request[.ifModifiedSince].flatMap(parseHTTPDate) else { return false }
        return info.createdAt.millisecondsSince1970 / 1000 <= since
    }

    /// What a `Range` header asks of a file.
    enum RangeRequest: Equatable {
        case whole
        case partial(ClosedRange<Int64>)
        case unsatisfiable
    }

    /// One `bytes=` range (`a-b`, `a-`, `-n`); anything else (several ranges, other units, a
    /// malformed header, an `If-Range` that no longer matches) is the whole file, as RFC 9110
    /// allows.
    static func range(_ request: HTTPFields, _ info: StoredFileInfo) -> RangeRequest {
        guard let header = request[.range], header.hasPrefix("bytes="), info.size > 0 else { return .whole }
        if let ifRange = request[.ifRange], ifRange != info.etag, parseHTTPDate(ifRange) != info.createdAt.millisecondsSince1970 / 1000 {
            return .whole
        }
        let spec = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash]
        let last = spec[spec.index(after: dash)...]
        let digits = { (text: Substring) in !text.isEmpty && text.count <= 18 && text.allSatisfy(\.isASCII) && text.allSatisfy(\.isNumber) }
        if first.isEmpty {
            guard digits(last), let suffix = Int64(last) else { return .whole }
            if suffix == 0 { return .unsatisfiable }
            return .partial(max(0, info.size - suffix)...(info.size - 1))
        }
        guard digits(first), let start = Int64(first) else { return .whole }
        if start >= info.size { return .unsatisfiable }
        if last.isEmpty { return .partial(start...(info.size - 1)) }
        guard digits(last), let end = Int64(last), end >= start else { return .whole }
        return .partial(start...min(end, info.size - 1))
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func httpDate(_ date: ParseDate) -> String {
        formatter().string(from: Date(timeIntervalSince1970: Double(date.millisecondsSince1970 / 1000)))
    }

    /// Seconds since 1970 of an IMF-fixdate; `nil` for anything else.
    static func parseHTTPDate(_ text: String) -> Int64? {
        formatter().date(from: text).map { Int64($0.timeIntervalSince1970) }
    }

    private static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }
}

extension HTTPField.Name {
    static let xContentTypeOptions = Self("X-Content-Type-Options") ?? .contentType
}
