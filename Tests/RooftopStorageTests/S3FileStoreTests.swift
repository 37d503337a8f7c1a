import Foundation
import RooftopCore
import RooftopS3
import RooftopStorage
import RooftopTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A real S3-compatible server on loopback: `moto_server` from the test environment
/// (`./scripts/test` installs `moto[server]` in `$ROOFTOP_TEST_VENV`), stopped by its PID.
final class MotoServer: Sendable {
    let process: Process
    let port: Int

    private init(process: Process, port: Int) {
        self.process = process
        self.port = port
    }

    /// Starts the server and waits (at most 30 s) until `bucket` can be created on it.
    static func start(bucket: String) async throws -> (MotoServer, S3Configuration) {
        let venv = ProcessInfo.processInfo.environment["ROOFTOP_TEST_VENV"] ?? "/tmp/rooftop-test-venv"
        let binary = venv + "/bin/moto_server"
        try #require(FileManager.default.isExecutableFile(atPath: binary), "run ./scripts/test once: it installs moto[server] in \(venv)")
        let port = try Loopback.freePort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-H", "127.0.0.1", "-p", String(port)]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let server = MotoServer(process: process, port: port)
        let configuration = S3Configuration(
            endpoint: "http://127.0.0.1:\(port)", bucket: bucket, accessKeyId: "rooftop-test", secretAccessKey: "rooftop-test-secret",
            prefix: "files/")
        let store = S3FileStore(configuration: configuration)
        for attempt in 0..<300 {
            do {
                try await store.createBucket()
                return (server, configuration)
            } catch {
                if attempt == 299 || !process.isRunning {
                    server.stop()
                    throw error
                }
                // The server is still starting: a peer's start-up, not a test's clock.
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        server.stop()
        throw CancellationError()
    }

    /// Kills the server: moto's development server does not stop on SIGTERM.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

/// Files in an S3-compatible bucket pass the suite the directory and PostgreSQL pass, against a
/// real server; requests are signed as AWS's own example says.
@Suite struct S3FileStoreTests {
    /// AWS's documented example of a signed `GET /test.txt` with a `Range` header.
    @Test func signatureMatchesAWSExample() {
        let signer = SigV4(accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", region: "us-east-1")
        let empty = SigV4.sha256([UInt8]())
        #expect(empty == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let authorization = signer.authorization(
            method: "GET", path: "/test.txt", query: [],
            headers: [
                ("Host", "examplebucket.s3.amazonaws.com"), ("Range", "bytes=0-9"), ("x-amz-content-sha256", empty),
                ("x-amz-date", "20130524T000000Z"),
            ], payloadHash: empty, amzDate: "20130524T000000Z")
        #expect(
            authorization
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
                + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        #expect(SigV4.encode("a b@c/d~e", keepSlash: true) == "a%20b%40c/d~e")
    }

    @Test func conformance() async throws {
        let (server, configuration) = try await MotoServer.start(bucket: "rooftop-conformance")
        defer { server.stop() }
        try await FileStoreConformance.runAll(S3FileStore(configuration: configuration, partSize: 5 << 20))
    }

    /// A file larger than a part goes up in parts and reads back whole and by ranges across part
    /// borders; an upload that passes the limit or breaks off mid-way leaves no object and no
    /// unfinished upload.
    @Test func multipartUploads() async throws {
        let (server, configuration) = try await MotoServer.start(bucket: "rooftop-multipart")
        defer { server.stop() }
        let store = S3FileStore(configuration: configuration, partSize: 5 << 20)
        let at = ParseDate(millisecondsSince1970: 1_700_000_000_000)
        let bytes = FileStoreConformance.pattern((12 << 20) + 17, seed: 5)
        let info = try await store.write(
            "video.mp4", contentType: "video/mp4", createdAt: at, maxSize: 1 << 30, from: FileStoreConformance.chunks(bytes, size: 1 << 20))
        #expect(info.size == Int64(bytes.count))
        #expect(try await store.info("video.mp4") == info)
        #expect(try await FileStoreConformance.contents(store, "video.mp4") == bytes)
        let border = Int64(5 << 20)
        #expect(
            try await FileStoreConformance.contents(store, "video.mp4", range: (border - 3)...(border + 3))
                == Array(bytes[Int(border - 3)...Int(border + 3)]))

        await #expect(throws: FileStoreError.tooLarge(limit: 11 << 20)) {
            _ = try await store.write(
                "big.mp4", contentType: "video/mp4", createdAt: at, maxSize: 11 << 20, from: FileStoreConformance.chunks(bytes, size: 1 << 20))
        }
        var sent = 0
        let broken = ByteChunks {
            sent += 1
            if sent > 7 { throw CancellationError() }
            return FileStoreConformance.pattern(1 << 20)
        }
        await #expect(throws: CancellationError.self) {
            _ = try await store.write("half.mp4", contentType: "video/mp4", createdAt: at, maxSize: 1 << 30, from: broken)
        }
        #expect(try await store.list().sorted() == ["video.mp4"])
        #expect(try await store.pendingUploads() == 0)
    }
}
