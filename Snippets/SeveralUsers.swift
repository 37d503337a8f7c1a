// snippet.hide
import Foundation
import Rooftop

let environment = ProcessInfo.processInfo.environment
Rooftop.initialize(
    applicationId: environment["ROOFTOP_APPLICATION_ID"] ?? "", clientKey: nil, server: environment["ROOFTOP_SERVER"] ?? "")
func run() async throws {
    // snippet.show
    let joe = try await RTUser.logIn(username: "joe", password: "joe's password")  // active: Joe
    let emma = try await RTUser.logIn(username: "emma", password: "emma's password")  // active: Emma
    print(RTUser.allUsers.map { $0.username ?? "" })  // ["joe", "emma"]
    try RTUser.switchCurrentUser(to: joe)  // no password asked
    print(joe.state, emma.state)  // active loggedIn
    try await emma.logOut()  // only Emma: .loggedOut, still listed
    try await joe.remove()  // logged out and forgotten: .removed
    print(joe.state, emma.state)  // removed loggedOut
    // snippet.hide
}
do {
    try await run()
} catch {
    print("failed: \(error)")
    exit(1)
}
