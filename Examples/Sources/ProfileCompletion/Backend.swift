import ExampleSupport
import Foundation
import Rooftop

/// A backend wrapper in the style of a Parse tutorial's ("written by John Kotz"), built on the Rooftop SDK: its `User`
/// calls, and `finishSignUp` storing the survey on the user.
final class User: Sendable {
    /// The SDK's user behind this one.
    let account: RTUser

    init(_ account: RTUser) { self.account = account }

    /// A failure, as the tutorial's blocks receive it.
    typealias BackendError = NSError

    /// The survey asked after sign-up.
    final class SurveyResponse: @unchecked Sendable {
        /// How often the user trains.
        enum Frequency: Int, Sendable {
            case LessThanOnce = 0, Once, TwoToThree, MoreThanThree
        }

        /// How hard.
        enum Intensity: Int, Sendable {
            case Beginner = 0, Intermediate, Advanced
        }

        var firstName: String?
        var lastName: String?
        var frequency: Frequency?
        var intensity: Intensity?
    }

    static func login(withUsername username: String, andPassword password: String, block: @escaping @Sendable (User?, BackendError?) -> Void) {
        RTUser.logInWithUsernameInBackground(username, password: password) { user, error in block(user.map(User.init), error) }
    }

    static func signUp(withUsername username: String, andPassword password: String, block: @escaping @Sendable (User?, BackendError?) -> Void) {
        let user = RTUser()
        user.username = username
        user.password = password
        user.signUpInBackground { succeeded, error in block(succeeded ? User(user) : nil, error) }
    }

    static func requestPasswordReset(forEmail email: String, block: @escaping @Sendable (BackendError?) -> Void) {
        RTUser.requestPasswordResetForEmailInBackground(email) { _, error in block(error) }
    }

    static func logout(block: @escaping @Sendable () -> Void) {
        RTUser.logOutInBackground { _ in block() }
    }

    /// As the tutorial puts it: "will open the Facebook login system in Safari … When the user is done logging
    /// in, the app will automatically reopen". The SDK's browser sign-in: the system browser (or
    /// the program given with `--browser`, which gets the URL as its last argument) and a
    /// listener on 127.0.0.1 for the way back; the server's `authRedirectURIs` must hold
    /// `http://127.0.0.1/callback`.
    static func loginWithFacebook(block: @escaping @Sendable (User?, BackendError?) -> Void) {
        let authenticator = RTLoopbackAuthenticator(open: browser())
        RTUser.logInInBackground(withProvider: "facebook", authenticator: authenticator) { user, error in block(user.map(User.init), error) }
    }

    /// Opens a URL with `--browser <program> [arguments…]` (space-separated); nil for the system browser.
    static func browser() -> (@Sendable (URL) throws -> Void)? {
        guard let command = option("browser", "ROOFTOP_BROWSER")?.split(separator: " ").map(String.init), let program = command.first else {
            return nil
        }
        return { url in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = Array(command.dropFirst()) + [url.absoluteString]
            try process.run()
        }
    }

    static var isLoggedIn: Bool { RTUser.isLoggedIn }

    static func isValidEmail(_ email: String) -> Bool { RTUser.isValidEmail(email) }

    static func current() -> User? { RTUser.currentUser().map(User.init) }

    /// Stores the survey on the user and saves it.
    func finishSignUp(_ response: SurveyResponse, block: @escaping @Sendable (BackendError?) -> Void) {
        account["firstName"] = response.firstName
        account["lastName"] = response.lastName
        account["frequency"] = response.frequency?.rawValue
        account["intensity"] = response.intensity?.rawValue
        account.saveInBackground { _, error in block(error) }
    }
}
