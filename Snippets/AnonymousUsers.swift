// snippet.hide
import Foundation
import Rooftop

let environment = ProcessInfo.processInfo.environment
Rooftop.initialize(
    applicationId: environment["ROOFTOP_APPLICATION_ID"] ?? "", clientKey: nil, server: environment["ROOFTOP_SERVER"] ?? "")
let done = DispatchSemaphore(value: 0)
// snippet.show
RTAnonymousUtils.logInWithBlock { (user: RTUser?, error: NSError?) -> Void in
    if error != nil || user == nil {
        print("Anonymous login failed.")
    } else {
        print("Anonymous user logged in.")
    }
    // snippet.hide
    done.signal()
    // snippet.show
}
// snippet.hide
done.wait()

func convert() async throws {
    // snippet.show
    // Later, offer to sign up: the same user, with all its data, gets a username and password.
    if RTAnonymousUtils.isLinkedWithUser(RTUser.currentUser()), let user = RTUser.currentUser() {
        user.username = "anon-no-more"
        user.password = "a long password"
        try await user.signUp()
        // snippet.hide
        print("converted \(user.objectId ?? "?"), linked: \(RTAnonymousUtils.isLinkedWithUser(user))")
        // snippet.show
    }
    // snippet.hide
}
try await convert()
