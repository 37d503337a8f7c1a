import RooftopCore
import RooftopHTTP
import RooftopServer
import RooftopServices
import Testing

/// One parser for every value, top-level and nested.
@Suite struct ConfigValueTests {
    func apply(_ values: [String: JSON], source: String = "environment") throws -> ServerConfiguration {
        var configuration = ServerConfiguration()
        try configuration.apply(values, source: source)
        return configuration
    }

    func failure(_ values: [String: JSON], source: String = "environment") -> String? {
        (#expect(throws: ConfigError.self) { _ = try apply(values, source: source) })?.description
    }

    static let booleanCases: [(JSON, Bool)] = [
        (.bool(true), true), ("true", true), ("1", true), (.bool(false), false), ("false", false), ("0", false),
    ]

    @Test(arguments: booleanCases)
    func booleans(_ given: JSON, _ expected: Bool) throws {
        #expect(try apply(["verifyUserEmails": given]).accounts.verifyUserEmails == expected)
        // The same rule inside nested options.
        #expect(try apply(["passwordPolicy": ["doNotAllowUsername": given]]).accounts.passwordPolicy.doNotAllowUsername == expected)
        let lockout = try apply(["accountLockout": ["threshold": 3, "duration": 5, "unlockOnPasswordReset": given]]).accounts.lockout
        #expect(lockout?.unlockOnPasswordReset == expected)
    }

    @Test func badBooleansNameSourceAndKey() {
        #expect(failure(["verifyUserEmails": "yes"]) == "environment: verifyUserEmails must be true or false")
        #expect(
            failure(["passwordPolicy": #"{"doNotAllowUsername":"yes"}"#]) == "environment: passwordPolicy.doNotAllowUsername must be true or false")
        #expect(
            failure(["rateLimit": [["requestPath": "/x", "requestCount": 1, "requestTimeWindow": 1, "includeMasterKey": "sure"]]])
                == "environment: rateLimit[0].includeMasterKey must be true or false")
    }

    @Test func integers() throws {
        #expect(try apply(["port": "8080"]).port == 8080)
        #expect(try apply(["port": 8081], source: "file").port == 8081)
        #expect(try apply(["mail": #"{"port":"2525","host":"h","transport":"smtp"}"#]).mail.port == 2525)
        #expect(failure(["port": "80a"]) == "environment: port must be an integer")
        #expect(failure(["port": 1.5], source: "rooftop.json") == "rooftop.json: port must be an integer")
        #expect(failure(["port": "70000"]) == "environment: port must be between 1 and 65535")
        #expect(failure(["mail": ["timeout": "soon"]]) == "environment: mail.timeout must be an integer")
        #expect(failure(["requestComplexity": ["includeLimit": 0]]) == "environment: requestComplexity.includeLimit must be a positive integer")
    }

    @Test func stringsAndLists() throws {
        #expect(try apply(["appId": 42], source: "file").appId == "42")
        #expect(try apply(["masterKeyIps": "10.0.0.1, 10.0.0.2"]).httpSettings.masterKeyIps == ["10.0.0.1", "10.0.0.2"])
        #expect(try apply(["trustProxy": ["10.0.0.9"]], source: "file").httpSettings.trustedProxies == ["10.0.0.9"])
        #expect(failure(["host": ["a"]]) == "environment: host must be a string")
        #expect(failure(["trustProxy": [1.5]]) == "environment: trustProxy.0 must be a string")
        #expect(failure(["profile": "staging"]) == "environment: profile must be development or production")
        #expect(failure(["databaseURI": "mysql://x"])?.contains("databaseURI must be a postgres:// URL") == true)
    }

    @Test func nestedOptions() throws {
        let configuration = try apply([
            "requestComplexity": #"{"batchRequestLimit":20,"includeLimit":3}"#, "defaultACL": "owner",
            "rateLimit": #"[{"requestPath":"/classes/*","requestTimeWindow":1000,"requestCount":5,"requestMethods":"post"}]"#,
        ])
        #expect(configuration.httpSettings.batchRequestLimit == 20)
        #expect(configuration.serviceSettings.queryLimits.maxIncludes == 3)
        #expect(configuration.serviceSettings.defaultACL == ["*": .owner])
        #expect(configuration.http(appId: "a", masterKey: "m").rateLimits.last?.methods == ["POST"])
        #expect(failure(["mail": "not json"]) == "environment: mail must be an object")
        #expect(failure(["passwordPolicy": ["validatorCallback": "x"]]) == "environment: passwordPolicy.validatorCallback is not supported")
    }
}
