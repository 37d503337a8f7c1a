// snippet.hide
import Foundation
import Rooftop

let environment = ProcessInfo.processInfo.environment
Rooftop.initialize(
    applicationId: environment["ROOFTOP_APPLICATION_ID"] ?? "", clientKey: nil, server: environment["ROOFTOP_SERVER"] ?? "")
func run() async throws {
    _ = try await RTUser.logIn(username: "my_username", password: "my_password")
    // snippet.show
    let privateNote = RTObject(className: "Note")
    privateNote["content"] = "This note is private!"
    privateNote.ACL = RTACL.ACLWithUser(RTUser.currentUser())
    try await privateNote.save()

    // Readable by everyone, writable only by its author:
    var postACL = RTACL.ACLWithUser(RTUser.currentUser())
    postACL.setPublicReadAccess(true)
    let post = RTObject(className: "Post")
    post.ACL = postACL
    try await post.save()

    // From now on, every new object without an ACL:
    var defaultACL = RTACL.ACL()
    defaultACL.setPublicReadAccess(true)
    RTACL.setDefaultACL(defaultACL, withAccessForCurrentUser: true)
    let comment = RTObject(className: "Comment")
    try await comment.save()  // public read; read and write for the current user
    // snippet.hide
    print("saved \(privateNote.objectId ?? "?") \(post.objectId ?? "?") \(comment.objectId ?? "?")")
}
do {
    try await run()
} catch {
    print("failed: \(error)")
    exit(1)
}
