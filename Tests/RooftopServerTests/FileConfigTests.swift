import RooftopCore
import RooftopServer
import RooftopServices
import Testing

/// The file keys: Parse's names and defaults, sizes in Parse's units, and refused values.
@Suite struct FileConfigTests {
    func configuration(_ values: [String: JSON]) throws -> ServerConfiguration {
        var configuration = ServerConfiguration()
        try configuration.apply(values, source: "test")
        return configuration
    }

    @Test func defaultsAreParses() throws {
        let files = try configuration([:]).files
        #expect(files.maxUploadSize == 20 << 20)
        #expect(!files.enableForPublic && !files.enableForAnonymousUser && files.enableForAuthenticatedUser)
        #expect(files.fileExtensions == [FilesConfiguration.safeExtensions])
        for refused in ["html", "HTM", "xhtml", "svg", "svgz", "js", "mjs", "exe", "sh", "php5", "xml"] {
            #expect(!Files.matches(refused, files.fileExtensions), "\(refused)")
        }
        for allowed in ["png", "jpg", "pdf", "mp4", "txt", "json", "htmlx", "shtmlfoo"] {
            #expect(Files.matches(allowed, files.fileExtensions), "\(allowed)")
        }
    }

    @Test func sizesAndRulesAreRead() throws {
        #expect(try configuration(["maxUploadSize": "500kb"]).files.maxUploadSize == 500 << 10)
        #expect(try configuration(["maxUploadSize": "1gb"]).files.maxUploadSize == 1 << 30)
        #expect(try configuration(["maxUploadSize": 1000]).files.maxUploadSize == 1000)
        for bad: JSON in ["twenty", "-1mb", "0", "99999999999999999gb"] {
            #expect(throws: ConfigError.self) { try configuration(["maxUploadSize": bad]) }
        }
        let rules = try configuration([
            "fileUpload": ["enableForPublic": true, "enableForAnonymousUser": "true", "fileExtensions": ["png", "jpe?g"]]
        ]).files
        #expect(rules.enableForPublic && rules.enableForAnonymousUser && rules.fileExtensions == ["png", "jpe?g"])
        #expect(throws: ConfigError.self) { try configuration(["fileUpload": ["enableForEveryone": true]]) }
        #expect(throws: ConfigError.self) { try configuration(["fileUpload": ["fileExtensions": ["(unclosed"]]]) }
        #expect(throws: ConfigError.self) { try configuration(["fileStorage": "ftp"]) }
    }

    /// `config print` hides the S3 secret and shows the storage in force.
    @Test func storageAndSecretsPrint() throws {
        let printed = try configuration(["fileStorage": "s3", "s3Bucket": "b", "s3SecretAccessKey": "hunter2"]).redacted
        #expect(printed["fileStorage"] == "s3")
        #expect(printed["s3SecretAccessKey"] == "<redacted>")
        #expect(printed["s3Bucket"] == "b")
        #expect(try configuration([:]).redacted["fileStorage"] == "disk")
        #expect(try configuration(["databaseURI": "postgres://u@h/db"]).redacted["fileStorage"] == "database")
    }
}
