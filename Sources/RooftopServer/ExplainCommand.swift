import ArgumentParser
import RooftopCore
import RooftopServices
import RooftopStorage

/// `rooftop explain`: the database's plan for a query as one user (or the master key) would
/// run it, access control included, so an operator can see which index answers it.
struct ExplainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain", abstract: "Show the database's plan for a query (which indexes it uses).")
    @OptionGroup var location: ExistingDatabaseOptions
    @Option(name: .customLong("class"), help: "The class to query, e.g. Note.") var className: String
    @Option(name: .customLong("where"), help: #"The query, as in a REST call, e.g. '{"owner":{"__type":"Pointer",...}}'."#)
    var whereJSON = "{}"
    @Option(help: "Run as this user (objectId), with its ACL group and roles; default: the master key.") var user: String?
    @Option(help: "Sort keys as in a REST call, e.g. -createdAt.") var order: String?
    @Option(help: "At most this many objects.") var limit = 100

    func run() async throws {
        let name = try ClassName(className)
        let query = try QueryNode.parse(where: try JSONParser.parse(whereJSON))
        var params: [String: JSON] = ["limit": .number(Double(limit))]
        if let order { params["order"] = .string(order) }
        let options = try FindOptions(params: params, defaultLimit: 100, maxLimit: 1_000_000, limits: QueryLimits())
        let database = try location.open(label: "explain")
        let plan = try await database.using { store in
            var access = Access.master
            if let user {
                let principal = try await RoleResolver(store: store).principal(forUser: user)
                access = Access(aclGroup: principal.aclGroup, userId: user)
            }
            let request = FindRequest(className: name, query: query, options: options, scope: AccessScope(classes: [name: access]))
            return try await store.queryPlan(request)
        }
        for line in plan { print(line) }
    }
}
