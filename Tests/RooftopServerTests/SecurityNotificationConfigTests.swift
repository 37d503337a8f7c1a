import RooftopCore
import RooftopServer
import RooftopServices
import Testing

/// `securityNotifications`: `true`/`false` for all, an object for each, everything else refused.
@Suite struct SecurityNotificationConfigTests {
    func apply(_ values: [String: JSON]) throws -> SecurityNotificationSettings {
        var configuration = ServerConfiguration()
        try configuration.apply(values, source: "environment")
        return configuration.accounts.securityNotifications
    }

    @Test func eachNoticeIsOnByDefaultAndCanBeTurnedOff() throws {
        #expect(try apply([:]) == SecurityNotificationSettings())
        #expect(try apply([:]).passwordChanged && (try apply([:])).newDevice && (try apply([:])).maxPerUserPerHour == 10)
        #expect(try apply(["securityNotifications": false]) == .off)
        #expect(try apply(["securityNotifications": "false"]) == .off)
        let some = try apply(["securityNotifications": ["newDevice": false, "providerUnlinked": false, "maxPerUserPerHour": 3]])
        #expect(!some.newDevice && !some.providerUnlinked && some.passwordChanged && some.emailChanged && some.maxPerUserPerHour == 3)
        let text = try apply(["securityNotifications": #"{"emailChanged":false}"#])
        #expect(!text.emailChanged && text.newDevice)
    }

    @Test func badValuesStopTheStart() {
        for bad: JSON in [["newDevice": "sometimes"], ["maxPerUserPerHour": 0], ["maxPerUserPerHour": 1000], ["newDevise": true], [1, 2], 7] {
            var configuration = ServerConfiguration()
            #expect(throws: ConfigError.self) { try configuration.apply(["securityNotifications": bad], source: "environment") }
        }
    }
}
