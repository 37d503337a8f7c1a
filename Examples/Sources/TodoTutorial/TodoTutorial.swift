import ExampleSupport
import Foundation
import Rooftop

// A login tutorial (a Japanese one, "チュートリアル2: ログイン機能", "tutorial 2: logging in") on the
// command line, in English: sign up, log in, add todos, log out, and a second user who sees none
// of the first one's todos.

/// Stops the walk-through with a message when a step does not give what the tutorial says.
func check(_ condition: Bool, _ message: String) {
    if !condition {
        print("✗ \(message)")
        exit(1)
    }
}

/// What makes this run's users unique on a server that has seen earlier runs.
let run = UUID().uuidString.prefix(6).lowercased()
let password = "password-\(run)"

/// Signs up `name` (sign-up screen), then logs out to come back to the login screen.
func signUp(_ name: String) async throws {
    let user = RTUser()
    user.username = "\(name)-\(run)"
    user.email = "\(name)-\(run)@example.com"
    user.password = password
    try await user.signUp()
    print("✓ Signed up: \(user.username ?? "")")
    try await RTUser.logOut()
}

/// Logs in by email (either identifier may be given), as the login screen does.
func logIn(_ name: String) async throws -> RTUser {
    let user = try await RTUser.logIn(username: nil, email: "\(name)-\(run)@example.com", password: password)
    print("✓ Login success: \(user.username ?? "")")
    return user
}

func todos() async throws -> [String] {
    let query = RTQuery(className: "TodoTutorial2")
    query.order(byAscending: "createdAt")
    return try await query.findObjects().compactMap { $0["text"] as? String }
}

func addTodo(_ text: String) async throws {
    let todo = RTObject(className: "TodoTutorial2")
    todo["text"] = text
    try await todo.save()
    print("  + \(text)")
}

@main
struct TodoTutorial {
    static func main() async {
        initializeFromCommandLine(program: "TodoTutorial")
        // "ログイン状態で作成したデータには、そのユーザのみがアクセス可能な ACL が自動的に設定されます": data
        // created while logged in automatically gets an ACL that only that user can access.
        RTACL.setDefaultACL(RTACL(), withAccessForCurrentUser: true)

        do {
            if RTUser.isLoggedIn { try await RTUser.logOut() }
            print("— Login screen (not logged in)")
            try await signUp("taro")
            try await signUp("hanako")

            _ = try await logIn("taro")
            try await addTodo("Buy milk")
            try await addTodo("Write an email")
            let taros = try await todos()
            print("  taro's todos: \(taros)")
            check(taros == ["Buy milk", "Write an email"], "taro should see his two todos")
            try await RTUser.logOut()
            print("— logged out")

            _ = try await logIn("hanako")
            let before = try await todos()
            print("  hanako's todos: \(before)")
            check(before.isEmpty, "hanako must not see taro's todos")
            try await addTodo("Return the book")
            check(try await todos() == ["Return the book"], "hanako should see only her todo")
            try await RTUser.logOut()
            print("✓ Each user sees only their own todos.")
        } catch let error as RTError {
            print("✗ \(error.message) (code \(error.code))")
            exit(1)
        } catch {
            print("✗ \(error)")
            exit(1)
        }
    }
}
