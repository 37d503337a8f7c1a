// snippet.hide
import Foundation
import Rooftop

let environment = ProcessInfo.processInfo.environment
Rooftop.initialize(
    applicationId: environment["ROOFTOP_APPLICATION_ID"] ?? "", clientKey: nil, server: environment["ROOFTOP_SERVER"] ?? "")
// A tiny PNG: its signature and a few bytes.
let imageData = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0x42, count: 64))
func run() async throws {
    _ = try await RTUser.logIn(username: "myname", password: "mypass")
    // snippet.show
    let picture = RTFile(name: "avatar.png", data: imageData, contentType: "image/png")
    try await picture.save { fraction in
        // Update a progress bar: fraction goes from 0 to 1.
        // snippet.hide
        _ = fraction
        // snippet.show
    }
    if let user = RTUser.currentUser() {
        user["picture"] = picture
        try await user.save()
    }

    // Later, on any device signed in as this user:
    let me = try await RTUser.query().getObject(withId: RTUser.currentUser()?.objectId ?? "")
    if let stored = me["picture"] as? RTFile {
        let data = try await stored.getData()
        // Show the image: UIImage(data: data), NSImage(data: data)…
        // snippet.hide
        print("picture \(stored.url?.lastPathComponent.hasSuffix("_avatar.png") == true) \(data == imageData)")
        // snippet.show
    }
    // snippet.hide
}
do {
    try await run()
} catch {
    print("failed: \(error)")
    exit(1)
}
