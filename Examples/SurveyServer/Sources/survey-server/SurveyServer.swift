import RooftopServer

/// The fitness app's server: Rooftop with the app's function, triggers and job. It runs every command
/// `rooftop` runs (`serve`, `config`, `export` …) with the same options and data directory.
@main
struct SurveyServer {
    /// Registers the app's handlers, then runs the command the arguments name.
    static func main() async {
        var cloud = CloudCode()
        cloud.define(FinishSignUp.name, rules: FinishSignUp.rules, FinishSignUp.handle)
        cloud.beforeSave("_User", ProfileRules.beforeSave)
        cloud.afterSave("_User", ProfileRules.afterSave)
        cloud.job(IncompleteSignUps.name, every: .seconds(24 * 3600), IncompleteSignUps.run)
        await RooftopCommandLine.main(cloud: cloud)
    }
}
