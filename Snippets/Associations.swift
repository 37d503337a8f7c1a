// snippet.hide
import Foundation
import Rooftop

let environment = ProcessInfo.processInfo.environment
Rooftop.initialize(
    applicationId: environment["ROOFTOP_APPLICATION_ID"] ?? "", clientKey: nil, server: environment["ROOFTOP_SERVER"] ?? "")
func run() async throws {
    _ = try await RTUser.logIn(username: "my_username", password: "my_password")
    // snippet.show
    let user = RTUser.currentUser()

    // Make a new post
    let post = RTObject(className: "Post")
    post["title"] = "My New Post"
    post["body"] = "This is some great content."
    post["user"] = user
    try await post.save()

    // Find all posts by the current user
    let query = RTQuery(className: "Post")
    query.whereKey("user", equalTo: user as Any)
    query.includeKey("user")  // the author comes back in full, not just a pointer
    let usersPosts = try await query.findObjects()
    // snippet.hide
    let author = usersPosts.first?["user"] as? RTUser
    print("posts: \(usersPosts.count), author: \(author?.username ?? "?")")
}
do {
    try await run()
} catch {
    print("failed: \(error)")
    exit(1)
}
