// snippet.hide
import Foundation
import Rooftop

let environment = ProcessInfo.processInfo.environment
Rooftop.initialize(
    applicationId: environment["ROOFTOP_APPLICATION_ID"] ?? "", clientKey: nil, server: environment["ROOFTOP_SERVER"] ?? "")
func run() async throws {
    // snippet.show
    let user = try await RTUser.logIn(username: "myname", password: "mypass")
    // or, by email (either identifier may be nil):
    let sameUser = try await RTUser.logIn(username: nil, email: "myname@example.com", password: "mypass")
    // snippet.hide
    print("logged in \(user.username ?? "") twice, current: \(RTUser.currentUser() === sameUser)")
}
do {
    try await run()
} catch {
    print("failed: \(error)")
    exit(1)
}
