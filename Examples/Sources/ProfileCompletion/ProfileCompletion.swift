import ExampleSupport
import Foundation
import Rooftop

// A profile-completion tutorial's calls, in order: sign up, log in, isValidEmail, the survey (finishSignUp), read
// back, password reset request, logout.

/// Waits for a block-based call.
func wait<T: Sendable>(_ start: @Sendable (@escaping @Sendable (T) -> Void) -> Void) async -> T {
    await withCheckedContinuation { continuation in start { continuation.resume(returning: $0) } }
}

@main
struct ProfileCompletion {
    static func main() async {
        initializeFromCommandLine(program: "ProfileCompletion")

        let username = "john-\(UUID().uuidString.prefix(6).lowercased())"
        let password = "a long password"

        let (signedUp, signUpError): (User?, User.BackendError?) = await wait { done in
            User.signUp(withUsername: username, andPassword: password) { (user, error) in done((user, error)) }
        }
        guard signedUp != nil else {
            print("✗ sign-up failed: \(signUpError?.userInfo["error"] ?? "")")
            exit(1)
        }
        print("✓ You signed up! (\(username))")
        await wait { done in User.logout { done(()) } }

        let (loggedIn, _): (User?, User.BackendError?) = await wait { done in
            User.login(withUsername: username, andPassword: password) { (user, error) in done((user, error)) }
        }
        guard loggedIn != nil, User.isLoggedIn else {
            print("✗ login failed")
            exit(1)
        }
        print("✓ You logged in!")

        let email = "some@email.com"
        if User.isValidEmail(email) { print("✓ \(email) is valid") }

        let response = User.SurveyResponse()
        response.firstName = "John"
        response.lastName = "Kotz"
        response.frequency = .LessThanOnce
        response.intensity = User.SurveyResponse.Intensity(rawValue: 1)
        guard let user = User.current() else { exit(1) }
        let surveyError: User.BackendError? = await wait { done in user.finishSignUp(response) { (error) in done(error) } }
        guard surveyError == nil else {
            print("✗ finishSignUp failed: \(surveyError?.userInfo["error"] ?? "")")
            exit(1)
        }
        do {
            try await user.account.fetch()
        } catch {
            print("✗ reading the profile back failed: \(error)")
            exit(1)
        }
        let frequency = (user.account["frequency"] as? Int).flatMap(User.SurveyResponse.Frequency.init(rawValue:))
        let intensity = (user.account["intensity"] as? Int).flatMap(User.SurveyResponse.Intensity.init(rawValue:))
        let firstName = user.account["firstName"] as? String ?? "-"
        let lastName = user.account["lastName"] as? String ?? "-"
        print("✓ Profile: \(firstName) \(lastName), \(frequency.map { "\($0)" } ?? "-"), \(intensity.map { "\($0)" } ?? "-")")
        guard frequency == .LessThanOnce, intensity == .Intermediate else { exit(1) }
        await wait { done in User.logout { done(()) } }

        // The tutorial's Facebook login, through the browser (with a server that configures it).
        if option("browser", "ROOFTOP_BROWSER") != nil || CommandLine.arguments.contains("--facebook") {
            let (facebookUser, facebookError): (User?, User.BackendError?) = await wait { done in
                User.loginWithFacebook { (user, error) in done((user, error)) }
            }
            guard let facebookUser, User.isLoggedIn, facebookUser.account.isLinked(with: "facebook") else {
                print("✗ Facebook login failed: \(facebookError?.localizedDescription ?? "")")
                exit(1)
            }
            print("✓ You logged in with Facebook!")
            let survey = User.SurveyResponse()
            survey.firstName = "Fay"
            let finished: User.BackendError? = await wait { done in facebookUser.finishSignUp(survey) { (error) in done(error) } }
            guard finished == nil else { exit(1) }
            print("✓ Profile: \(facebookUser.account["firstName"] as? String ?? "-")")
            await wait { done in User.logout { done(()) } }
        }
        print("✓ All's fine!")
    }
}
