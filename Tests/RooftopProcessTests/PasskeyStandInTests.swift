import Foundation
import RooftopCore
import RooftopTesting
import Testing

/// The software passkey the passkey tests sign in with (`Tests/Support/passkey_authenticator.py`)
/// is proven first against a reference relying party: python-fido2's `Fido2Server`
/// (`Tests/Support/passkey_fido2_check.py`, fido2 from `$ROOFTOP_TEST_VENV`, pinned in
/// `scripts/test`). Each algorithm the wire offers registers and signs in; each tampering is
/// refused, and for the reason it was made for. A missing environment fails the test.
@Suite struct PasskeyStandInTests {
    static let support = SMTPTestServer.root.appendingPathComponent("Tests/Support")

    /// Runs the test environment's Python on `arguments` (stdin from the file `input`) without
    /// holding a thread of Swift's pool while it works: its exit status, stdout and stderr.
    func python(_ arguments: [String], input: String? = nil) async throws -> (status: Int32, output: String, errors: String) {
        guard FileManager.default.isExecutableFile(atPath: SMTPTestServer.python) else {
            throw TestEnvironmentError("no Python test environment at \(SMTPTestServer.python): run ./scripts/test, which creates it")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: SMTPTestServer.python)
        process.arguments = arguments
        if let input { process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: input)) }
        let pipes = [Pipe(), Pipe()]
        process.standardOutput = pipes[0]
        process.standardError = pipes[1]
        let texts = LockedBox(["", ""])
        let read = DispatchGroup()
        return try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { process in
                let status = process.terminationStatus
                read.notify(queue: .global()) {
                    let (output, errors) = texts.withLock { ($0[0], $0[1]) }
                    continuation.resume(returning: (status, output, errors))
                }
            }
            do {
                read.enter()
                read.enter()
                try process.run()
                for (index, pipe) in pipes.enumerated() {
                    DispatchQueue.global().async {
                        let data = pipe.fileHandleForReading.readDataToEndOfFile()
                        texts.withLock { $0[index] = String(decoding: data, as: UTF8.self) }
                        read.leave()
                    }
                }
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }

    /// fido2's refusal for each tampering: the stand-in's hostile flag changed what it was meant to.
    static let refusals: [String: String] = [
        "registerWrongOrigin": "Invalid origin", "registerNoUv": "User Verified flag not set",
        "registerNoUp": "User Present flag not set", "registerWrongChallenge": "Wrong challenge",
        "registerWrongRpId": "Wrong RP ID hash", "assertWrongOrigin": "Invalid origin",
        "assertTamperedSignature": "Invalid signature", "assertNoUv": "user verified flag not set",
        "assertNoUp": "User Present flag not set", "assertWrongChallenge": "Wrong challenge",
        "assertWrongRpId": "Wrong RP ID hash",
    ]
    /// What fido2 must accept: registration, sign-in with the credential listed and usernameless,
    /// and no user verification where the options only prefer it.
    static let acceptances = ["register", "assert", "assertUsernameless", "registerNoUvWhenPreferred", "assertNoUvWhenPreferred"]

    @Test func fido2AcceptsTheStandInAndRefusesItsTamperings() async throws {
        let (status, output, errors) = try await python([Self.support.appendingPathComponent("passkey_fido2_check.py").path, "prove"])
        #expect(status == 0, "\(output)\(errors)")
        let summary = try #require(try? JSONParser.parse(output), "prove printed no JSON: \(output)\(errors)")
        #expect(summary["ok"] == true, "\(output)")
        #expect(summary["fido2"]?.stringValue?.isEmpty == false, "\(output)")
        for algorithm in ["ES256", "EdDSA", "RS256"] {
            let results = try #require(summary["results"]?[algorithm]?.objectValue, "\(algorithm): \(output)")
            #expect(results.count == Self.acceptances.count + Self.refusals.count, "\(algorithm): \(results.keys.sorted())")
            for name in Self.acceptances {
                #expect(results[name]?["got"] == "accepted", "\(algorithm) \(name): \(results[name] ?? .null)")
            }
            for (name, reason) in Self.refusals {
                #expect(results[name]?["got"] == "refused", "\(algorithm) \(name): \(results[name] ?? .null)")
                #expect(results[name]?["detail"]?.stringValue?.contains(reason) == true, "\(algorithm) \(name): \(results[name] ?? .null)")
            }
            let checks = try #require(summary["checks"]?[algorithm]?.objectValue, "\(algorithm): \(output)")
            #expect(checks == ["canonicalCbor": true, "algorithm": true, "backupFlags": true, "noneAttestation": true], "\(algorithm)")
        }
    }

    /// The judge's other mode, the one the Swift authenticator is proven with: options in the
    /// wire's shape (`/users/me/passkeys/registration/options`, `/passkeys/authentication/options`),
    /// the stand-in's responses; accepted for the allowed origin, refused for another.
    @Test func fido2JudgesResponsesToTheWiresOptions() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-passkey-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func file(_ name: String, _ text: String) throws -> String {
            let url = directory.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            return url.path
        }
        let origin = "http://localhost:8123"
        let registrationOptions = try file(
            "registration-options.json",
            #"""
            {"rp":{"id":"localhost","name":"Rooftop"},"user":{"id":"q83vEjRWeJCrze8SNFZ4kA","name":"ana","displayName":"ana"},
             "challenge":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8",
             "pubKeyCredParams":[{"type":"public-key","alg":-7},{"type":"public-key","alg":-8},{"type":"public-key","alg":-257}],
             "timeout":300000,"excludeCredentials":[],
             "authenticatorSelection":{"residentKey":"required","requireResidentKey":true,"userVerification":"required"},
             "attestation":"none"}
            """#)
        let authenticationOptions = try file(
            "authentication-options.json",
            #"{"challenge":"ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8","rpId":"localhost","timeout":300000,"userVerification":"required","allowCredentials":[]}"#
        )
        let state = directory.appendingPathComponent("credential.json").path
        let standIn = Self.support.appendingPathComponent("passkey_authenticator.py").path
        let judge = Self.support.appendingPathComponent("passkey_fido2_check.py").path
        // The stand-in reads the options on stdin and prints its response: kept in a file for the judge.
        func standInRun(_ command: String, _ options: String, _ flags: [String] = []) async throws -> String {
            let (status, output, errors) = try await python([standIn, command, "--state", state, "--origin", origin] + flags, input: options)
            try #require(status == 0, "\(errors)")
            return try file("\(command)\(flags.joined()).json", output)
        }
        let registration = try await standInRun("register", registrationOptions)
        // The judge's verdict: its exit status (0 accepted, 1 refused) and the JSON it printed.
        func judged(_ arguments: [String]) async throws -> (status: Int32, answer: JSON) {
            let (status, output, errors) = try await python([judge] + arguments)
            return (status, try #require(try? JSONParser.parse(output), "the judge printed no JSON: \(output)\(errors)"))
        }
        let verifyRegistration = ["verify-registration", "--options", registrationOptions, "--response", registration]
        var verdict = try await judged(verifyRegistration + ["--origin", origin])
        #expect(verdict.status == 0 && verdict.answer["accepted"] == true && verdict.answer["algorithm"] == -7, "\(verdict.answer)")
        verdict = try await judged(verifyRegistration + ["--origin", "http://localhost:1"])
        #expect(verdict.status == 1 && verdict.answer["reason"] == "ValueError: Invalid origin in CollectedClientData.", "\(verdict.answer)")
        let assertion = try await standInRun("assert", authenticationOptions)
        let verifyAssertion = ["verify-assertion", "--options", authenticationOptions, "--registration", registration, "--origin", origin]
        verdict = try await judged(verifyAssertion + ["--response", assertion])
        #expect(verdict.status == 0 && verdict.answer["userHandle"] == "q83vEjRWeJCrze8SNFZ4kA", "\(verdict.answer)")
        let tampered = try await standInRun("assert", authenticationOptions, ["--tamper-signature"])
        verdict = try await judged(verifyAssertion + ["--response", tampered])
        #expect(verdict.status == 1 && verdict.answer["reason"] == "ValueError: Invalid signature.", "\(verdict.answer)")
    }

    /// The end-to-end client Rooftop's passkey tests run (`Tests/Support/passkey_flow.py`): its
    /// checks of the wire's shapes tell good answers from bad ones, without a server.
    @Test func theFlowsWireChecksTellGoodShapesFromBad() async throws {
        let (status, output, errors) = try await python([Self.support.appendingPathComponent("passkey_flow.py").path, "self-test"])
        #expect(status == 0, "\(output)\(errors)")
        #expect(try #require(try? JSONParser.parse(output), "\(output)\(errors)") == ["ok": true, "failures": []])
    }
}
