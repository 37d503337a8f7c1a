import Crypto
package import Foundation

/// AWS Signature Version 4 for S3: the `Authorization` header of one request.
package struct SigV4: Sendable {
    let accessKeyId: String
    let secretAccessKey: String
    let region: String
    let service = "s3"

    /// A signer for these credentials and region.
    package init(accessKeyId: String, secretAccessKey: String, region: String) {
        self.accessKeyId = accessKeyId
        self.secretAccessKey = secretAccessKey
        self.region = region
    }

    /// The `Authorization` value for a request. `path` is already URI-encoded (each segment);
    /// `headers` are every header to sign, `host`, `x-amz-date` and `x-amz-content-sha256`
    /// included; `amzDate` is `yyyyMMdd'T'HHmmss'Z'`.
    package func authorization(
        method: String, path: String, query: [(String, String)], headers: [(String, String)], payloadHash: String, amzDate: String
    ) -> String {
        let canonicalQuery = query.map { (Self.encode($0.0), Self.encode($0.1)) }.sorted { $0 < $1 }.map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
        let normalized = headers.map { ($0.0.lowercased(), $0.1.trimmingCharacters(in: .whitespaces)) }.sorted { $0.0 < $1.0 }
        let canonicalHeaders = normalized.map { "\($0.0):\($0.1)\n" }.joined()
        let signedHeaders = normalized.map(\.0).joined(separator: ";")
        let canonicalRequest = [method, path, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].joined(separator: "\n")
        let day = String(amzDate.prefix(8))
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, Self.hex(SHA256.hash(data: Data(canonicalRequest.utf8)))].joined(separator: "\n")
        var key = SymmetricKey(data: Data(("AWS4" + secretAccessKey).utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        let signature = Self.hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key))
        return "AWS4-HMAC-SHA256 Credential=\(accessKeyId)/\(scope), SignedHeaders=\(signedHeaders), Signature=\(signature)"
    }

    /// The hexadecimal SHA-256 of `bytes` (the payload hash).
    package static func sha256(_ bytes: some Sequence<UInt8>) -> String {
        hex(SHA256.hash(data: Data(bytes)))
    }

    /// `x-amz-date` for `date`.
    package static func amzDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }

    /// RFC 3986 encoding as SigV4 wants it: everything but `A-Z a-z 0-9 - _ . ~` (and `/` when
    /// `keepSlash`) as `%XX`.
    package static func encode(_ text: String, keepSlash: Bool = false) -> String {
        var out = ""
        for byte in text.utf8 {
            let unreserved =
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "-_.~".utf8.contains(byte)
            if unreserved || (keepSlash && byte == UInt8(ascii: "/")) {
                out.unicodeScalars.append(UnicodeScalar(byte))
            } else {
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef")
        var out = ""
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return out
    }
}
