import RooftopServer

/// The fitness app's server: Rooftop with the app's cloud functions. It runs every command
/// `rooftop` runs (`serve`, `config`, `export` …) with the same options and data directory.
@main
struct SurveyServer {
    /// Registers the app's functions, then runs the command the arguments name.
    static func main() async {
        var cloud = CloudCode()
        cloud.define(FinishSignUp.name, rules: FinishSignUp.rules, FinishSignUp.handle)
        await RooftopCommandLine.main(cloud: cloud)
    }
}
