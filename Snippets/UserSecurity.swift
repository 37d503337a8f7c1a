// snippet.hide
import Foundation
import Rooftop

let environment = ProcessInfo.processInfo.environment
Rooftop.initialize(
    applicationId: environment["ROOFTOP_APPLICATION_ID"] ?? "", clientKey: nil, server: environment["ROOFTOP_SERVER"] ?? "")
// snippet.show
let user = try RTUser.logInWithUsername("my_username", password: "my_password")  // blocking form
user.username = "my_new_username"  // Attempt to change username
try user.save()  // This succeeds, since the user was authenticated on the device

// Get the user from a non-authenticated method
let userAgain = try RTUser.query().getObjectWithId(user.objectId ?? "") as RTUser
userAgain.username = "another_username"
do {
    try userAgain.save()  // This throws, since the user is not authenticated
} catch {
    print(error)  // code 206: userCannotBeAlteredWithoutSession
}
