import RooftopCore
import RooftopS3
import RooftopServices

extension ServerConfiguration {
    /// Uploaded files: where they are kept, who may upload which, and how large.
    static let fileKeys: [ConfigKey] = [
        ConfigKey(
            "fileStorage", .string,
            "where uploaded files are kept: `disk` (`<dataDir>/files`, one node), `database` (PostgreSQL only, in 256 KiB chunks: "
                + "every node sharing the database shares the files) or `s3` (an S3-compatible bucket: AWS S3, MinIO, R2; the `s3…` "
                + "keys). Rooftop's own option — see [files.md](files.md)",
            defaultNote: "`disk` with SQLite, `database` with PostgreSQL",
            apply: { configuration, value in
                let kind = try value.string()
                try value.require(["disk", "database", "s3"].contains(kind), "must be disk, database or s3")
                configuration.fileStorage = kind
            }, show: { .string($0.effectiveFileStorage) }),
        ConfigKey(
            "maxUploadSize", .string,
            "largest file upload: bytes, or Parse's form (`20mb`, `500kb`, `1gb`); larger is 413 (code 130), before any of it is "
                + "read when `Content-Length` declares it",
            defaultNote: "`20mb`",
            apply: { configuration, value in
                guard let bytes = Self.parseSize(try value.string()), bytes > 0 else {
                    throw value.error("must be a positive size such as 20mb, 500kb or 1048576")
                }
                configuration.files.maxUploadSize = bytes
            }, show: { .number(Double($0.files.maxUploadSize)) }),
        .subTable(
            "fileUpload",
            "Parse Server's upload rules: who may upload, and the extensions an upload may have (the master key is exempt); "
                + "see [files.md](files.md)",
            members: fileUploadMembers),
        .bool(
            "deleteUserFiles", \.files.deleteUserFiles,
            "when a user is deleted, also delete the files its own object referred to that no other object refers to (finding "
                + "out reads every object: for small and medium apps; `rooftop files unreferenced` does the same in bulk). Rooftop's own "
                + "option"),
        ConfigKey(
            "fileAccess", .string,
            "who may download a file: `public` (anyone with its URL, as Parse) or `signed` (file URLs in answers carry "
                + "`expires` and an HMAC `signature`, and a download without a valid, unexpired one is 403; the master key needs "
                + "none). Rooftop's own option — see [files.md](files.md)",
            defaultNote: "`public`",
            apply: { configuration, value in
                let text = try value.string()
                guard let access = FileAccess(rawValue: text) else { throw value.error("must be public or signed") }
                configuration.files.access = access
            }, show: { .string($0.files.access.rawValue) }),
        .int(
            "fileURLLifetime", \.files.signedURLLifetime,
            "with `fileAccess: signed`: how long a signed file URL works, in seconds (one hour)", valid: { $0 > 0 && $0 <= 31_536_000 },
            problem: "must be between 1 and 31536000 seconds"),
        ConfigKey(
            "fileKey", .string,
            "with `fileAccess: signed`: the secret file URLs are signed with (through HKDF-SHA-256); every node must share it. "
                + "Unset: derived from the master key. Changing it invalidates every URL handed out",
            redaction: .value, defaultNote: "derived from `masterKey`",
            apply: { configuration, value in
                let text = try value.string()
                try value.require(text.utf8.count >= 32, "must be at least 32 characters")
                configuration.files.fileKey = text
            }, show: { $0.files.fileKey.map(JSON.string) ?? .null }),
        .string("s3Endpoint", \.s3.endpoint, "with `fileStorage: s3`: the service's URL (`https://s3.eu-west-1.amazonaws.com`, `http://minio:9000`)"),
        .string("s3Bucket", \.s3.bucket, "with `fileStorage: s3`: the bucket (it must exist)"),
        .string("s3Region", \.s3.region, "with `fileStorage: s3`: the region requests are signed for (`auto` for R2)"),
        .string("s3AccessKeyId", \.s3.accessKeyId, "with `fileStorage: s3`: the access key id"),
        ConfigKey(
            "s3SecretAccessKey", .string, "with `fileStorage: s3`: the secret access key", redaction: .value,
            apply: { configuration, value in configuration.s3.secretAccessKey = try value.string() },
            show: { $0.s3.secretAccessKey.isEmpty ? .null : .string($0.s3.secretAccessKey) }),
        .string("s3Prefix", \.s3.prefix, "with `fileStorage: s3`: prepended to every object's key (`files/`)"),
        .bool(
            "s3PathStyle", \.s3.pathStyle,
            "with `fileStorage: s3`: `https://endpoint/bucket/key` (MinIO and most compatible services) rather than AWS's "
                + "`https://bucket.endpoint/key`"),
    ]

    /// `fileStorage` in force: as set, else the database's own kind.
    var effectiveFileStorage: String { fileStorage ?? (databaseURI == nil ? "disk" : "database") }

    /// `fileUpload`'s members: Parse's four options.
    static let fileUploadMembers: [ConfigKey] = [
        .bool("fileUpload.enableForPublic", \.files.enableForPublic, "callers without a session may upload"),
        .bool("fileUpload.enableForAnonymousUser", \.files.enableForAnonymousUser, "anonymous users may upload"),
        .bool("fileUpload.enableForAuthenticatedUser", \.files.enableForAuthenticatedUser, "signed-in users may upload"),
        ConfigKey(
            "fileUpload.fileExtensions", .list,
            "regular expressions one of which an upload's extension — and its declared type's — must match; `[\"*\"]` allows "
                + "all. The default list refuses HTML, SVG, XML, scripts and executables",
            defaultNote: "see [files.md](files.md)",
            apply: { configuration, value in
                let patterns = try value.list()
                for pattern in patterns where pattern != "*" {
                    guard (try? Regex(pattern)) != nil else { throw value.error("has \(pattern), which is not a regular expression") }
                }
                configuration.files.fileExtensions = patterns
            }, show: { .array($0.files.fileExtensions.map(JSON.string)) }),
    ]

    /// Bytes of `1048576`, `500kb`, `20mb` or `1gb` (Parse's units, powers of 1024).
    static func parseSize(_ text: String) -> Int? {
        let lower = text.lowercased().filter { $0 != " " }
        let units: [(String, Int)] = [("gb", 1 << 30), ("mb", 1 << 20), ("kb", 1 << 10), ("b", 1)]
        for (suffix, factor) in units where lower.hasSuffix(suffix) {
            guard let n = Int(lower.dropLast(suffix.count)), n <= Int.max / factor else { return nil }
            return n * factor
        }
        return Int(lower)
    }
}
