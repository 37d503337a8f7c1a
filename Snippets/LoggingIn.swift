// snippet.hide
import Foundation
import Rooftop

let environment = ProcessInfo.processInfo.environment
Rooftop.initialize(
    applicationId: environment["ROOFTOP_APPLICATION_ID"] ?? "", clientKey: nil, server: environment["ROOFTOP_SERVER"] ?? "")
let done = DispatchSemaphore(value: 0)
// snippet.show
RTUser.logInWithUsernameInBackground("myname", password: "mypass") { (user, error) in
    if user != nil {
        // Do stuff after successful login.
        // snippet.hide
        print("logged in \(user?.username ?? "")")
        // snippet.show
    } else {
        // The login failed. Check error to see why.
        // snippet.hide
        print("login failed (\(error?.code ?? 0))")
        // snippet.show
    }
    // snippet.hide
    done.signal()
    // snippet.show
}
// snippet.hide
done.wait()
