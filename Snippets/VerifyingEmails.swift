// snippet.hide
import Foundation
import Rooftop

let environment = ProcessInfo.processInfo.environment
Rooftop.initialize(
    applicationId: environment["ROOFTOP_APPLICATION_ID"] ?? "", clientKey: nil, server: environment["ROOFTOP_SERVER"] ?? "")
func run() async throws {
    // snippet.show
    let user = RTUser()
    user.username = "ana"
    user.password = "ana's long password"
    user.email = "ana@example.com"
    try await user.signUp()  // the server emails a verification link

    try await user.refresh()
    print(user.emailVerified as Any)  // Optional(false) until the link is opened

    // The first mail got lost? Send another link:
    try await RTUser.requestEmailVerification("ana@example.com")
    // snippet.hide
}
do {
    try await run()
} catch {
    print("failed: \(error)")
    exit(1)
}
