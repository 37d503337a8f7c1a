// snippet.hide
import Foundation
import Rooftop

let environment = ProcessInfo.processInfo.environment
Rooftop.initialize(
    applicationId: environment["ROOFTOP_APPLICATION_ID"] ?? "", clientKey: nil, server: environment["ROOFTOP_SERVER"] ?? "")
let done = DispatchSemaphore(value: 0)
// snippet.show
RTUser.requestPasswordResetForEmailInBackground("email@example.com") { (succeeded, error) in
    // The server emails a link to its reset page; the answer is the same for unknown addresses.
    // snippet.hide
    print("reset requested: \(succeeded)")
    done.signal()
    // snippet.show
}
// or: try await RTUser.requestPasswordResetForEmail("email@example.com")
// snippet.hide
done.wait()
