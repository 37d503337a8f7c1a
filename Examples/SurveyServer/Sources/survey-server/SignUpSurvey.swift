import Foundation
import RooftopServer

/// The survey a new user answers after signing up, checked: what `finishSignUp` stores on the
/// user.
struct SignUpSurvey: Sendable, Equatable {
    /// How often the user trains (the app's choices, stored by number).
    enum Frequency: Int, Sendable, CaseIterable {
        case lessThanOnce = 0, once, twoToThree, moreThanThree
    }

    /// How hard the user trains.
    enum Intensity: Int, Sendable, CaseIterable {
        case beginner = 0, intermediate, advanced
    }

    /// The most characters a name may have (after trimming).
    static let maxNameLength = 100

    /// The first name, trimmed.
    let firstName: String
    /// The last name, trimmed.
    let lastName: String
    /// How often.
    let frequency: Frequency
    /// How hard.
    let intensity: Intensity

    /// The survey from the client's `survey` object, or 142 naming the first member that is
    /// wrong. Members the app does not ask for are ignored, not stored.
    init(validating survey: [String: JSON]) throws(ParseError) {
        firstName = try Self.name(survey, "firstName")
        lastName = try Self.name(survey, "lastName")
        frequency = try Self.choice(survey, "frequency")
        intensity = try Self.choice(survey, "intensity")
    }

    /// The user's fields that hold the survey.
    var fields: [String: JSON] {
        [
            "firstName": .string(firstName), "lastName": .string(lastName),
            "frequency": .number(Double(frequency.rawValue)), "intensity": .number(Double(intensity.rawValue)),
        ]
    }

    /// A name: a string, not blank, at most ``maxNameLength`` characters, without control
    /// characters (a NUL or a line break in a name only breaks whatever displays it later).
    static func name(_ survey: [String: JSON], _ key: String) throws(ParseError) -> String {
        guard let text = survey[key]?.stringValue else { throw invalid("survey.\(key) must be a string.") }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw invalid("survey.\(key) must not be empty.") }
        guard trimmed.count <= maxNameLength else { throw invalid("survey.\(key) must be at most \(maxNameLength) characters.") }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw invalid("survey.\(key) must not contain control characters.")
        }
        return trimmed
    }

    /// One of the numbered choices: a whole number in the enumeration's range.
    static func choice<Choice: RawRepresentable<Int> & CaseIterable>(_ survey: [String: JSON], _ key: String) throws(ParseError) -> Choice {
        guard let number = survey[key]?.intValue, let choice = Choice(rawValue: number) else {
            let numbers = Choice.allCases.map(\.rawValue)
            throw invalid("survey.\(key) must be a whole number from \(numbers.min() ?? 0) to \(numbers.max() ?? 0).")
        }
        return choice
    }

    /// A 142: the client sent something the survey does not allow.
    static func invalid(_ message: String) -> ParseError { ParseError(.validationError, message) }
}

/// `finishSignUp`: "This function will deal with the survey results and complete the signup
/// process". The client sends `{"survey": {"firstName", "lastName", "frequency", "intensity"}}`
/// once, as the signed-in new user.
enum FinishSignUp {
    /// The function's name, as clients call it.
    static let name = "finishSignUp"

    /// Checked before the handler runs: a signed-in user and a `survey` object.
    static let rules = FunctionRules(requireUser: true, fields: ["survey": FieldRule(.object, required: true)])

    /// Stores the survey on the caller and marks the sign-up complete; `{"complete": true}`.
    @Sendable static func handle(_ request: FunctionRequest) async throws -> JSON {
        let userId = try request.requireUser()
        // The rules let only an object through; the survey's members are this function's to check.
        let survey = try SignUpSurvey(validating: request.params["survey"]?.objectValue ?? [:])
        let user = try await request.objects.get("_User", userId, as: .master)
        if user["signUpComplete"]?.boolValue == true {
            throw ParseError(.validationError, "The sign-up is already complete.")
        }
        var fields = survey.fields
        fields["signUpComplete"] = true
        // As the master key, explicitly: `signUpComplete` is the server's to set, never the
        // client's, so the app may lock clients out of writing these fields (by ACL or class-level
        // permissions) and this write still goes through.
        try await request.objects.update("_User", userId, fields, as: .master)
        return ["complete": true]
    }
}
