import Foundation
import RooftopCore
import RooftopCrypto
import RooftopTesting
import Testing

/// A second-factor code is good once across the cluster: two nodes on one PostgreSQL, the same
/// code (or recovery code) sent to both at once, exactly one login succeeds.
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
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }
}
