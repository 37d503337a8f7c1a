import Foundation
import RooftopTesting
import Testing

/// `rooftop admin create|list|delete|reset-password` as an operator runs them: the password
/// from standard input (never an argument), the policy and duplicates refused with their exit
/// codes, `--totp` printing the URI an authenticator app scans.
extension ServerProcessTests {
    /// Runs `rooftop` with `input` on standard input; exit status and output.
    func rooftop(_ arguments: [String], input: String) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = Self.root.appendingPathComponent(".build/debug/rooftop")
        process.arguments = arguments
        process.environment = [:]
        let output = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = stdin
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func adminsAreManagedOnTheCommandLine() throws {
        let dir = try temporaryDirectory("admins")
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = ["--data-dir", dir.path]
        var (status, output) = try rooftop(["admin", "create", "ops"] + data, input: "console passphrase 1\n")
        #expect(status == 0, "\(output)")
        #expect(output.contains("created admin ops (owner)"))
        #expect(!output.contains("console passphrase 1"))
        (status, output) = try rooftop(["admin", "create", "ops"] + data, input: "console passphrase 1\n")
        #expect(status == 65)
        #expect(output.contains("already exists"))
        (status, output) = try rooftop(["admin", "create", "weak"] + data, input: "short\n")
        #expect(status == 65)
        #expect(output.contains("at least 8"))
        (status, output) = try rooftop(["admin", "create", "--password", "console passphrase 1", "argued"] + data, input: "")
        #expect(status != 0, "a password is never an argument")
        (status, output) = try rooftop(["admin", "create", "bad name!"] + data, input: "console passphrase 1\n")
        #expect(status == 65)
        (status, output) = try rooftop(["admin", "create", "viewer", "--role", "read-only", "--totp"] + data, input: "console passphrase 1\n")
        #expect(status == 0, "\(output)")
        #expect(output.contains("otpauth://totp/Rooftop%20Console:viewer?secret="))
        (status, output) = try rooftop(["admin", "list"] + data, input: "")
        #expect(output.contains("ops  owner  totp=no"))
        #expect(output.contains("viewer  read-only  totp=yes"))
        #expect(!output.contains("$2"), "no hash is printed")
        (status, output) = try rooftop(["admin", "reset-password", "ops"] + data, input: "a new passphrase 2\n")
        #expect(status == 0, "\(output)")
        (status, output) = try rooftop(["admin", "delete", "viewer"] + data, input: "")
        #expect(status == 0)
        (status, output) = try rooftop(["admin", "delete", "viewer"] + data, input: "")
        #expect(status == 66)
        (status, output) = try rooftop(["admin", "list"] + data, input: "")
        #expect(!output.contains("viewer"))
    }
}
