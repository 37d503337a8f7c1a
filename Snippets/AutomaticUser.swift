// snippet.hide
import Foundation
import Rooftop

let environment = ProcessInfo.processInfo.environment
Rooftop.initialize(
    applicationId: environment["ROOFTOP_APPLICATION_ID"] ?? "", clientKey: nil, server: environment["ROOFTOP_SERVER"] ?? "")
// snippet.show
RTUser.enableAutomaticUser()
RTUser.currentUser()?.incrementKey("RunCount")
RTUser.currentUser()?.saveInBackground()
// snippet.hide
for _ in 0..<200 where RTUser.currentUser()?.objectId == nil { usleep(25_000) }
print("automatic user \(RTUser.currentUser()?.objectId ?? "not saved")")
