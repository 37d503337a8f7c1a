import Foundation
import Rooftop
import RooftopCore
import RooftopServer
import Testing

/// `RTCloud` and `RTConfig` against a real server with Swift functions, over loopback HTTP.
extension SDKTests {
    @Suite struct CloudSDKTests {
        static var cloud: CloudCode {
            var cloud = CloudCode()
            cloud.define("profile", rules: FunctionRules(requireUser: true, fields: ["name": FieldRule(.string, required: true)])) { request in
                [
                    "userId": .string(try request.requireUser()), "greeting": .string("Hi \(request.params["name"]?.stringValue ?? "")"),
                    "when": request.params["when"] ?? .null, "count": 3,
                ]
            }
            cloud.define("soldOut") { _ in throw ParseError(ParseError.Code(3001), "Out of stock.") }
            return cloud
        }

        func signUp(_ name: String) async throws -> RTUser {
            let user = RTUser()
            user.username = name
            user.password = "pass of \(name)"
            try await user.signUp()
            return user
        }

        @Test func functionsAreCalledAsTheCurrentUserOrAGivenOne() async throws {
            try await withSDK(cloud: Self.cloud) { _, _ in
                // Signed out: the function's rule refuses, with its code.
                await #expect { try await RTCloud.callFunction("profile", with: ["name": "x"]) } throws: {
                    ($0 as? RTError)?.code == .validationError
                }
                let ana = try await signUp("ana")
                let when = Date(timeIntervalSince1970: 1_700_000_000)
                let result = try #require(try await RTCloud.callFunction("profile", with: ["name": "Ana", "when": when]) as? [String: Any])
                #expect(result["userId"] as? String == ana.objectId)
                #expect(result["greeting"] as? String == "Hi Ana")
                #expect(result["when"] as? Date == when)
                #expect(result["count"] as? Int == 3)

                // A second user on the device; the call names which one acts.
                let bo = try await signUp("bo")
                #expect(RTUser.currentUser() === bo)
                let asAna = try #require(try await RTCloud.callFunction("profile", with: ["name": "A"], as: ana) as? [String: Any])
                #expect(asAna["userId"] as? String == ana.objectId)

                await #expect { try await RTCloud.callFunction("soldOut") } throws: {
                    ($0 as? RTError)?.code.rawValue == 3001 && ($0 as? RTError)?.message == "Out of stock."
                }
                await #expect { try await RTCloud.callFunction("missing") } throws: { ($0 as? RTError)?.code == .scriptFailed }
                // A parameter no JSON can carry fails before anything is sent.
                await #expect(throws: RTError.self) { try await RTCloud.callFunction("profile", with: ["name": NSObject()]) }

                // The completion-handler and blocking forms.
                let (greeting, error): (String?, NSError?) = await callback { finish in
                    RTCloud.callFunctionInBackground("profile", with: ["name": "cb"]) { value, error in
                        finish(((value as? [String: Any])?["greeting"] as? String, error))
                    }
                }
                #expect(error == nil)
                #expect(greeting == "Hi cb")
                let blocking = try await onThread {
                    (try RTCloud.callFunction("profile", with: ["name": "b"]) as? [String: Any])?["greeting"] as? String
                }
                #expect(blocking == "Hi b")
            }
        }

        @Test func configIsFetchedKeptAndReadOffline() async throws {
            try await withSDK { server, storage in
                #expect(RTConfig.currentConfig().keys.isEmpty)
                let put = #"{"params":{"welcome":"Hello","limit":5,"beta":true,"internal":"x"},"masterKeyOnly":{"internal":true}}"#
                #expect(try await server.rest("PUT", "/config", body: put, master: true).0 == 200)
                let config = try await RTConfig.getConfig()
                #expect(config["welcome"] as? String == "Hello")
                #expect(config["limit"] as? Int == 5)
                #expect(config["beta"] as? Bool == true)
                #expect(config["internal"] == nil)
                #expect(config.keys == ["beta", "limit", "welcome"])
                #expect(RTConfig.currentConfig()["welcome"] as? String == "Hello")

                // A relaunch reads the kept values without the network.
                Rooftop.initialize(with: sdkConfiguration(server, storage: storage))
                #expect(RTConfig.currentConfig()["limit"] as? Int == 5)

                #expect(try await server.rest("PUT", "/config", body: #"{"params":{"welcome":"Bonjour"}}"#, master: true).0 == 200)
                let fetched: (RTConfig?, NSError?) = await callback { finish in RTConfig.getConfigInBackground { finish(($0, $1)) } }
                #expect(fetched.0?["welcome"] as? String == "Bonjour")
                let blocking = try await onThread { try RTConfig.getConfig()["welcome"] as? String }
                #expect(blocking == "Bonjour")
            }
        }
    }
}
