import Foundation
import RooftopCore
import RooftopCrypto
import RooftopTesting
import Testing

/// A second-factor code is good once across the cluster: two nodes on one PostgreSQL, the same
/// code (or recovery code) sent to both at once, exactly one login succeeds; the same code sent
/// to a login on one and a removal on the other, only one; a started enrolment confirmed on
/// both, only one.
@Suite(.serialized) struct MultiNodeSecondFactorTests {
    static let secret: [UInt8] = (0..<20).map { UInt8(truncatingIfNeeded: $0 &* 53 &+ 7) }

    @Test func aCodeSpentOnOneNodeIsRefusedOnTheOther() async throws {
        let clock = TestClock()
        let cluster = try await ClusterNodes.start(clock: clock)
        do {
            let (status, user) = try await cluster.call(0, "POST", "/users", body: #"{"username":"ana","password":"correct horse battery"}"#)
            try #require(status == 201, "\(user)")
            let id = try #require(user["objectId"]?.stringValue)
            let token = try #require(user["sessionToken"]?.stringValue)
            let code = { TOTP.code(secret: Self.secret, step: clock.now().millisecondsSince1970 / 1000 / 30) }
            let enrol = #"{"authData":{"mfa":{"secret":"\#(Base32.encode(Self.secret))","token":"\#(code())"}}}"#
            let (enrolled, answer) = try await cluster.call(0, "PUT", "/users/\(id)", body: enrol, token: token)
            try #require(enrolled == 200, "\(answer)")
            let codes = answer["authDataResponse"]?["mfa"]?["recovery"]?.arrayValue ?? []
            let recovery = try #require(codes.first?.stringValue)

            for attempt in 0..<3 {
                clock.advance(by: .seconds(30))
                // A fresh code each round, then a recovery code: sent to both nodes at once.
                let secondFactor = attempt < 2 ? code() : recovery
                let body = #"{"username":"ana","password":"correct horse battery","authData":{"mfa":{"token":"\#(secondFactor)"}}}"#
                async let first = cluster.call(0, "POST", "/login", body: body)
                async let second = cluster.call(1, "POST", "/login", body: body)
                let answers: [(Int, JSON)] = try await [first, second]
                #expect(answers.map { $0.0 }.sorted() == [200, 400], "round \(attempt): \(answers.map { $0.1 })")
                #expect(answers.contains { $0.1["code"] == 141 })
            }
            // Another route on the other node: the same code disables on one and logs in on the
            // other — only one of them.
            clock.advance(by: .seconds(30))
            let now = code()
            let login = #"{"username":"ana","password":"correct horse battery","authData":{"mfa":{"token":"\#(now)"}}}"#
            async let loggedIn = cluster.call(0, "POST", "/login", body: login)
            async let disabled = cluster.call(1, "POST", "/users/me/mfa/disable", body: #"{"token":"\#(now)"}"#, token: token)
            let raced: [(Int, JSON)] = try await [loggedIn, disabled]
            #expect(raced.map { $0.0 }.sorted() == [200, 400], "\(raced.map { $0.1 })")
            // Two confirmations of one started enrolment, one per node: one enables. (A recovery
            // code proves the factor if the login won above; without a factor none is needed.)
            let (_, started) = try await cluster.call(
                0, "POST", "/users/me/mfa/enroll", body: #"{"token":"\#(codes[1].stringValue ?? "")"}"#, token: token)
            let fresh = try #require(started["secret"]?.stringValue.flatMap(Base32.decode), "\(started)")
            let confirm = #"{"token":"\#(TOTP.code(secret: fresh, step: clock.now().millisecondsSince1970 / 1000 / 30))"}"#
            async let one = cluster.call(0, "POST", "/users/me/mfa/confirm", body: confirm, token: token)
            async let other = cluster.call(1, "POST", "/users/me/mfa/confirm", body: confirm, token: token)
            let confirmations: [(Int, JSON)] = try await [one, other]
            #expect(confirmations.map { $0.0 }.sorted() == [200, 400], "\(confirmations.map { $0.1 })")
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }
}
