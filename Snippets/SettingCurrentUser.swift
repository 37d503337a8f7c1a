// snippet.hide
import Foundation
import Rooftop

let environment = ProcessInfo.processInfo.environment
Rooftop.initialize(
    applicationId: environment["ROOFTOP_APPLICATION_ID"] ?? "", clientKey: nil, server: environment["ROOFTOP_SERVER"] ?? "")
let done = DispatchSemaphore(value: 0)
let sessionToken = environment["ROOFTOP_SESSION_TOKEN"] ?? "session-token-here"
// snippet.show
// sessionToken: a token your own login service handed to the app
RTUser.becomeInBackground(
    sessionToken,
    { (user, error) in
        if error != nil {
            // The token could not be validated.
            // snippet.hide
            print("become failed (\(error?.code ?? 0))")
            // snippet.show
        } else {
            // The current user is now set to user.
            // snippet.hide
            print("became \(user?.username ?? "")")
            // snippet.show
        }
        // snippet.hide
        done.signal()
        // snippet.show
    })
// snippet.hide
done.wait()
