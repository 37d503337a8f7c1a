import Foundation
import RooftopCore
import RooftopServices

/// `fileAccess: signed` at the edge of the API: every File value in an answer gets a freshly
/// signed URL, and a write may only refer to a file through a signed URL it was handed.
///
/// Answers only ever hold what the caller may read (objects through their ACLs and CLPs,
/// `include`d ones with the caller's own access), so signing every File value of every answer
/// — objects, `include`, `/users/me`, login, `/batch`, aggregates, function results, config —
/// hands a signed URL to exactly the callers who can read an object referring to the file. The
/// other way in, saving an object that names someone else's file and reading it back, is shut
/// by `checkReferences`: knowing a name (from an old link) is not enough.
struct SignedFileURLs {
    let signing: FileURLSigning
    /// `…/files/<appId>/`.
    let prefix: String

    /// URLs of `base` (the API's public URL with its mount path) for `appId`.
    init(signing: FileURLSigning, base: String, appId: String) {
        self.signing = signing
        prefix = "\(base)/files/\(Self.segment(appId))/"
    }

    /// `name`'s signed URL.
    func url(_ name: String) -> String {
        prefix + Self.segment(name) + "?" + signing.query(for: name)
    }

    /// `value` with a signed `url` in every File value, however deep.
    func rewrite(_ value: JSON) -> JSON {
        switch value {
        case .object(var members):
            if members["__type"] == "File", let name = members["name"]?.stringValue {
                members["url"] = .string(url(name))
                return .object(members)
            }
            for (key, member) in members { members[key] = rewrite(member) }
            return .object(members)
        case .array(let items): return .array(items.map(rewrite))
        default: return value
        }
    }

    /// An encoded answer with its File values' URLs signed; unchanged (and not parsed) when it
    /// holds none.
    func rewrite(_ bytes: [UInt8]) -> [UInt8] {
        guard Self.mayHoldFile(bytes), let parsed = try? JSONParser.parse(bytes) else { return bytes }
        return JSONWriter.bytes(rewrite(parsed))
    }

    /// Whether `"File"` occurs in `bytes` (every File value's `__type` is written so).
    static func mayHoldFile(_ bytes: [UInt8]) -> Bool {
        let needle = Array("\"File\"".utf8)
        guard bytes.count >= needle.count else { return false }
        var index = 0
        while index <= bytes.count - needle.count {
            if bytes[index] == needle[0], bytes[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }

    /// Refuses a body that refers to a file without a valid, unexpired signed URL for it (in the
    /// value's `url`, as every Parse SDK sends it): proof that the caller was handed the file.
    func checkReferences(in value: JSON) throws {
        switch value {
        case .object(let members):
            if members["__type"] == "File" {
                let name = members["name"]?.stringValue ?? ""
                let query = members["url"]?.stringValue.flatMap { url in url.firstIndex(of: "?").map { String(url[url.index(after: $0)...]) } }
                guard signing.isValid(query: query, for: name) else {
                    throw ParseError(.operationForbidden, "A file can only be referred to by the signed URL the server handed out.")
                }
                return
            }
            for member in members.values { try checkReferences(in: member) }
        case .array(let items): for item in items { try checkReferences(in: item) }
        default: return
        }
    }

    /// A path segment, percent-encoded.
    static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? ""
    }
}

/// A download under `fileAccess: signed` without a valid, unexpired signature (and without the
/// master key): 403 with code 119, and none of the file.
struct FileAccessDenied: Error {
    let message = "This file's URL is not signed, or its signature is wrong or has expired."
}
