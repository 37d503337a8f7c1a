// snippet.hide
import Foundation
import Rooftop

let environment = ProcessInfo.processInfo.environment
Rooftop.initialize(
    applicationId: environment["ROOFTOP_APPLICATION_ID"] ?? "", clientKey: nil, server: environment["ROOFTOP_SERVER"] ?? "")
func run() async throws {
    let someoneId = environment["ROOFTOP_USER_ID"] ?? ""
    // snippet.show
    let query = RTUser.query()
    query.whereKey("gender", equalTo: "female")
    let girls = try await query.findObjects()

    let someone = try await RTUser.getUserObject(withId: someoneId)
    // snippet.hide
    print("found \(girls.count) (\(girls.compactMap(\.username).sorted().joined(separator: ", "))), got \(someone.username ?? "")")
}
do {
    try await run()
} catch {
    print("failed: \(error)")
    exit(1)
}
