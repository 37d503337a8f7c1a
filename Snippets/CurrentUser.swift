// snippet.hide
import Foundation
import Rooftop

let environment = ProcessInfo.processInfo.environment
Rooftop.initialize(
    applicationId: environment["ROOFTOP_APPLICATION_ID"] ?? "", clientKey: nil, server: environment["ROOFTOP_SERVER"] ?? "")
_ = try? RTUser.logInWithUsername("myname", password: "mypass")
// snippet.show
var currentUser = RTUser.currentUser()
if currentUser != nil {
    // Do stuff with the user
    // snippet.hide
    print("current: \(currentUser?.username ?? "")")
    // snippet.show
} else {
    // Show the signup or login screen
}
RTUser.logOut()
currentUser = RTUser.currentUser()  // this will now be nil
// snippet.hide
print("after logOut: \(currentUser?.username ?? "nil")")
