import Foundation
import HTTPTypes
import Hummingbird
import RooftopCore
import RooftopServices

/// "View as this user": what a find (or get) by the user would answer, read-only, audited.
extension ConsoleResponder {
    /// Objects the view shows, as a find by the user with `limit=50`.
    static let viewAsLimit = 50
    /// The longest `where` the view takes (the API's own limits apply inside it too).
    static let viewAsWhereLimit = 8_192

    /// Classes offered in the view's picker: every class but `_Session` and the master's own.
    static func viewableClasses(_ schemas: [ClassSchema]) -> [String] {
        schemas.map(\.className.rawValue).filter { $0 != ClassName.session.rawValue && !ClassName.masterOnlyClasses.contains($0) }.sorted()
    }

    /// `GET /users/<id>/view-as?class=…&where=…&objectId=…`.
    func viewAsPage(_ visit: inout ConsoleVisit, id: String) async throws -> Response {
        guard let user = try await users(visit).consoleUser(id) else { return visit.message(.notFound, "noUser", status: .notFound) }
        let query = visit.query
        let username = user.fields["username"]?.stringValue ?? ""
        let className = query["class"] ?? ""
        let whereText = query["where"] ?? ""
        let objectId = query["objectId"] ?? ""
        var values: [String: Any] = [
            "id": id, "username": username, "className": className, "where": whereText, "objectId": objectId,
            "classes": Self.viewableClasses(try await data.schemas.all()).map { ["name": $0, "selected": $0 == className] as [String: Any] },
        ]
        guard !className.isEmpty else { return visit.page("userViewAs", title: username, values: values, section: "users") }
        do {
            let name = try ClassName(className)
            let objects: [JSON]
            if !objectId.isEmpty {
                guard ObjectId.isPlausible(objectId) else { throw ParseError.objectNotFound }
                objects = [try await users(visit).getAsUser(id, className: name, objectId: objectId)]
            } else {
                var params: [String: JSON] = ["limit": .number(Double(Self.viewAsLimit))]
                if !whereText.trimmingCharacters(in: .whitespaces).isEmpty {
                    guard whereText.utf8.count <= Self.viewAsWhereLimit else {
                        throw ParseError(.invalidJSON, "The where JSON is longer than \(Self.viewAsWhereLimit) bytes.")
                    }
                    guard let parsed = try? JSONParser.parse(whereText), parsed.objectValue != nil else {
                        throw ParseError(.invalidJSON, "where must be a JSON object.")
                    }
                    params["where"] = parsed
                }
                objects = try await users(visit).findAsUser(id, className: name, params: params)
            }
            values["searched"] = true
            values["hasResults"] = !objects.isEmpty
            values["results"] = objects.map { object -> [String: Any] in
                ["objectId": object["objectId"]?.stringValue ?? "", "json": String(JSONWriter.string(object, sortedKeys: true).prefix(2_000))]
            }
        } catch let error as ParseError {
            let status: HTTPResponse.Status = error.code == .objectNotFound ? .notFound : .badRequest
            return visit.page("userViewAs", title: username, values: values, status: status, error: error.message, section: "users")
        }
        return visit.page("userViewAs", title: username, values: values, section: "users")
    }
}
