// snippet.hide
import Foundation
import Rooftop

let environment = ProcessInfo.processInfo.environment
Rooftop.initialize(
    applicationId: environment["ROOFTOP_APPLICATION_ID"] ?? "", clientKey: nil, server: environment["ROOFTOP_SERVER"] ?? "")
let done = DispatchSemaphore(value: 0)
// snippet.show
let user = RTUser()
user.username = "myUsername"
user.password = "my long password"
user.email = "email@example.com"
// other fields can be set just like with RTObject
user["phone"] = "415-392-0202"

user.signUpInBackground { (success, error) in
    if let error = error {
        let errorString = error.userInfo["error"] as? NSString
        // Show the errorString somewhere and let the user try again.
        // snippet.hide
        print("sign-up failed (\(error.code)): \(errorString ?? "")")
        // snippet.show
    } else {
        // Hooray! Let them use the app now.
        // snippet.hide
        print("signed up \(user.objectId ?? "?")")
        // snippet.show
    }
    // snippet.hide
    done.signal()
    // snippet.show
}
// snippet.hide
done.wait()
