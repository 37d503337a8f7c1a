import Foundation
import Rooftop

/// `--name value` from the command line, else the environment variable, else `fallback`.
func option(_ name: String, _ variable: String, _ fallback: String? = nil) -> String? {
    let arguments = CommandLine.arguments
    if let index = arguments.firstIndex(of: "--" + name), index + 1 < arguments.count { return arguments[index + 1] }
    return ProcessInfo.processInfo.environment[variable] ?? fallback
}

/// The survey asked after sign-up, as the app's screens fill it in.
struct SurveyResponse: Sendable {
    /// How often the user trains.
    enum Frequency: Int, Sendable {
        case LessThanOnce = 0, Once, TwoToThree, MoreThanThree
    }

    /// How hard.
    enum Intensity: Int, Sendable {
        case Beginner = 0, Intermediate, Advanced
    }

    /// The first name.
    var firstName: String
    /// The last name.
    var lastName: String
    /// How often.
    var frequency: Frequency
    /// How hard.
    var intensity: Intensity

    /// The answers in one line: `John Kotz, frequency 0, intensity 1`.
    var summary: String { "\(firstName) \(lastName), frequency \(frequency.rawValue), intensity \(intensity.rawValue)" }

    /// The `survey` parameter of `finishSignUp`.
    var parameter: [String: Any] {
        ["firstName": firstName, "lastName": lastName, "frequency": frequency.rawValue, "intensity": intensity.rawValue]
    }
}

/// A new user of the fitness app: signs up, sends the survey to the server's `finishSignUp`
/// (which alone may mark the sign-up complete), reads the profile back, and sees a second
/// completion refused.
@main
struct SurveyApp {
    /// Runs the walk-through; exits with 1 on anything unexpected.
    static func main() async {
        guard let appId = option("app-id", "ROOFTOP_APP_ID") else {
            print("usage: survey-app --server http://127.0.0.1:1338/parse --app-id <appId> [--storage <dir>] [--username <name>]")
            exit(2)
        }
        var configuration = RTConfiguration(applicationId: appId, server: option("server", "ROOFTOP_SERVER", "http://127.0.0.1:1338/parse") ?? "")
        configuration.storageDirectory = option("storage", "ROOFTOP_STORAGE").map { URL(fileURLWithPath: $0) }
        Rooftop.initialize(with: configuration)
        do {
            try await walkThrough()
        } catch {
            print("✗ \(error)")
            exit(1)
        }
    }

    /// Sign-up, survey, profile, second survey.
    static func walkThrough() async throws {
        let user = RTUser()
        user.username = option("username", "SURVEY_USERNAME") ?? "runner-\(UUID().uuidString.prefix(8).lowercased())"
        user.password = "a long password 1"
        try await user.signUp()
        print("✓ Signed up as \(user.username ?? "")")

        let survey = SurveyResponse(firstName: "John", lastName: "Kotz", frequency: .LessThanOnce, intensity: .Intermediate)
        let result = try await RTCloud.callFunction("finishSignUp", with: ["survey": survey.parameter])
        print("✓ Sign-up complete: \(result)")

        guard let current = RTUser.currentUser() else { throw RTError(.otherCause, "No current user after sign-up.") }
        try await current.fetch()
        // The user's fields as the server stored them, printed as the survey reads.
        let stored = [
            "\(current["firstName"] as? String ?? "-") \(current["lastName"] as? String ?? "-")",
            "frequency \(current["frequency"] as? Int ?? -1)", "intensity \(current["intensity"] as? Int ?? -1)",
            "complete \(current["signUpComplete"] as? Bool ?? false)",
        ].joined(separator: ", ")
        guard stored == survey.summary + ", complete true" else {
            throw RTError(.otherCause, "The stored profile is \(stored), not the survey's \(survey.summary).")
        }
        print("✓ Profile: \(stored)")

        do {
            _ = try await RTCloud.callFunction("finishSignUp", with: ["survey": survey.parameter])
            throw RTError(.otherCause, "The server accepted a second completion of the sign-up.")
        } catch let error as RTError where error.code == .validationError {
            print("✓ Second completion refused: \(error.message)")
        }
    }
}
