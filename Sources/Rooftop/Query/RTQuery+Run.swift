public import Foundation
import RooftopCore

extension RTQuery {
    /// Sends the query; a long one goes as a POST with `_method: GET` so no URL is too long.
    func run(limit: Int? = nil, count: Bool = false) async throws -> JSON {
        let client = try RTClient.current()
        let parameters = try parameters(limit: limit, count: count)
        let path = RTObject.path(of: className)
        var request = APIRequest(method: "GET", path: path, query: parameters)
        if parameters.reduce(0, { $0 + $1.0.count + $1.1.count }) > 4000 {
            var body: [String: JSON] = ["_method": "GET"]
            for (name, value) in parameters {
                body[name] =
                    name == "where" ? ((try? JSONParser.parse(value)) ?? .object([:])) : (Int(value).map { .number(Double($0)) } ?? .string(value))
            }
            request = APIRequest(method: "POST", path: path, body: .object(body))
        }
        return try await client.send(request, as: actingUser)
    }

    /// Every matching object (up to `limit`).
    public func findObjects() async throws -> [T] {
        let answer = try await run()
        guard let results = answer["results"]?.arrayValue else { throw RTError(.invalidJSON, "The server's answer to a query has no results.") }
        let user = actingUser
        var objects: [T] = []
        for result in results {
            guard let fields = result.objectValue, let object = RTObject.make(className: className, user: user) as? T else {
                throw RTError(.invalidJSON, "The server returned something that is not a \(className).")
            }
            object.merge(server: fields, user: user, complete: true)
            objects.append(object)
        }
        return objects
    }

    /// Every matching object (`findObjects()`).
    public func find() async throws -> [T] { try await findObjects() }

    /// The matching object with `objectId`; `objectNotFound` (101) if there is none or it may
    /// not be read.
    public func getObject(withId objectId: String) async throws -> T {
        whereKey("objectId", equalTo: objectId)
        guard let object = try await findObjects().first else { throw RTError(.objectNotFound, "Object not found.") }
        return object
    }

    /// The first matching object; `objectNotFound` (101) if none.
    public func getFirstObject() async throws -> T {
        let saved = limit
        defer { limit = saved }
        limit = 1
        guard let object = try await findObjects().first else { throw RTError(.objectNotFound, "No results matched the query.") }
        return object
    }

    /// How many objects match.
    public func countObjects() async throws -> Int {
        let answer = try await run(limit: 0, count: true)
        guard let count = answer["count"]?.numberValue else { throw RTError(.invalidJSON, "The server's answer to a count has no count.") }
        return Int(count)
    }

    /// `findObjects()`, blocking the calling thread (never call it on the main thread of an app).
    @available(*, noasync, message: "use the async findObjects()")
    public func findObjects() throws -> [T] { try Callback.wait { try await self.findObjects() } }

    /// `getObject(withId:)`, blocking.
    @available(*, noasync, message: "use the async getObject(withId:)")
    public func getObjectWithId(_ objectId: String) throws -> T { try Callback.wait { try await self.getObject(withId: objectId) } }

    /// `findObjects()` with a completion handler.
    public func findObjectsInBackground(block: (@Sendable ([T]?, NSError?) -> Void)? = nil) {
        Callback.deliver(block) { try await self.findObjects() }
    }

    /// `getObject(withId:)` with a completion handler.
    public func getObjectInBackground(withId objectId: String, block: (@Sendable (T?, NSError?) -> Void)? = nil) {
        Callback.deliver(block) { try await self.getObject(withId: objectId) }
    }

    /// `getFirstObject()` with a completion handler.
    public func getFirstObjectInBackground(block: (@Sendable (T?, NSError?) -> Void)? = nil) {
        Callback.deliver(block) { try await self.getFirstObject() }
    }

    /// `countObjects()` with a completion handler.
    public func countObjectsInBackground(block: (@Sendable (Int?, NSError?) -> Void)? = nil) {
        Callback.deliver(block) { try await self.countObjects() }
    }
}
