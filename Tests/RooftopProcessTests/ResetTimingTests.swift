import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopServices
import RooftopStorage
import RooftopTesting
import Testing

/// `_User` writes held at a gate the test opens: shows whether an answer waited for one.
final class WriteGate: Sendable {
    struct State {
        var closed = false
        var waiting: [CheckedContinuation<Void, Never>] = []
        var held = 0
        var openedByTimeout = false
    }
    private let state = LockedBox(State())

    /// Holds `_User` writes until `open`, or (so a test of a wrong build fails, never hangs)
    /// until `timeout` has passed.
    func close(timeout: Duration = .seconds(10)) {
        state.withLock { $0.closed = true }
        Task {
            try? await Task.sleep(for: timeout)
            if state.withLock({ $0.closed }) {
                state.withLock { $0.openedByTimeout = true }
                open()
            }
        }
    }

    func open() {
        let resumed = state.withLock { state in
            state.closed = false
            defer { state.waiting = [] }
            return state.waiting
        }
        for waiter in resumed { waiter.resume() }
    }

    func pass() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let wait = state.withLock { state in
                guard state.closed else { return false }
                state.held += 1
                state.waiting.append(continuation)
                return true
            }
            if !wait { continuation.resume() }
        }
    }

    var heldCount: Int { state.withLock { $0.held } }
    var timedOut: Bool { state.withLock { $0.openedByTimeout } }
}

/// `/requestPasswordReset` and `/verificationEmailRequest` answer before any per-account work,
/// so a known address is not slower to answer than an unknown one; the mail still goes.
@Suite struct ResetTimingTests: LiveServerTest {
    @Test func resetAnswersBeforeTheTokenWrite() async throws {
        let server = try SMTPTestServer()
        let (mail, accounts) = mailSetup(server, verify: false)
        let gate = WriteGate()
        try await withServer(accounts: accounts, mail: mail, wrap: { gated($0, gate) }) {
            (client: any TestClientProtocol) async throws in
            let created = try await call(
                client, .post, "/parse/users", body: #"{"username":"ana","password":"old password 1","email":"ana@example.com"}"#)
            #expect(created.status == 201)
            gate.close()
            let known = try await call(client, .post, "/parse/requestPasswordReset", body: #"{"email":"ana@example.com"}"#)
            let unknown = try await call(client, .post, "/parse/requestPasswordReset", body: #"{"email":"nobody@example.com"}"#)
            // Answered while the token write was still held at the gate.
            #expect(!gate.timedOut, "the answer waited for the token write")
            #expect(known.status == 200 && known.json == [:])
            #expect(unknown.status == 200 && unknown.json == [:])
            #expect(gate.heldCount <= 1)
            gate.open()
            let (full, _) = try await link(server, message: 1)
            #expect(full.contains("request_password_reset?token="))
            // Hostile input is still refused at once, before any lookup.
            let refusals = [#"{"email":{"$ne":null}}"#, #"{"email":"ana@example.com\u0000"}"#, #"{}"#, #"{"email":""}"#]
            for body in refusals {
                let reply = try await call(client, .post, "/parse/requestPasswordReset", body: body)
                #expect(reply.status == 400, "\(body): \(reply.json)")
            }
        }
    }

    @Test func verificationRequestAnswersBeforeTheTokenWrite() async throws {
        let server = try SMTPTestServer()
        let (mail, accounts) = mailSetup(server, verify: true)
        let gate = WriteGate()
        try await withServer(accounts: accounts, mail: mail, wrap: { gated($0, gate) }) {
            (client: any TestClientProtocol) async throws in
            _ = try await call(
                client, .post, "/parse/users", body: #"{"username":"ana","password":"old password 1","email":"ana@example.com"}"#)
            _ = try await link(server, message: 1)
            gate.close()
            let known = try await call(client, .post, "/parse/verificationEmailRequest", body: #"{"email":"ana@example.com"}"#)
            #expect(!gate.timedOut, "the answer waited for the token write")
            #expect(known.status == 200 && known.json == [:])
            gate.open()
            let (full, _) = try await link(server, message: 2)
            #expect(full.contains("verify_email?token="))
        }
    }
}

/// `store` with its `_User` writes passing `gate` first.
func gated(_ store: any DataStore, _ gate: WriteGate) -> any DataStore {
    ObservedStore(
        inner: store,
        beforeWrite: { operations in
            if operations.contains(where: { $0.className == .user }) { await gate.pass() }
        })
}
