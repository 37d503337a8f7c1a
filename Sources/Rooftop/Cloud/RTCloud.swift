public import Foundation
import RooftopCore

/// Calls the server's functions (`POST /functions/<name>`): logic that runs on the server,
/// defined in Swift by a program that embeds Rooftop, or behind a webhook.
///
/// ```swift
/// let result = try await RTCloud.callFunction("finishSignUp", with: ["survey": ["firstName": "John", "frequency": 0]])
/// ```
///
/// Parameters are encoded as object fields are (strings, numbers, booleans, dates, arrays,
/// dictionaries, objects as pointers, files, geo points); the result is decoded the same way.
/// A function's refusal arrives as the error it threw on the server (its Parse code), or 141.
public enum RTCloud {
    /// Calls function `name` with `parameters` as the current user (or `user`, when several are
    /// signed in on this device); the function's result.
    public static func callFunction(_ name: String, with parameters: sending [String: Any] = [:], as user: RTUser? = nil) async throws
        -> sending Any
    {
        let body = try ValueCoding.encode(parameters)
        let acting = user ?? RTUser.currentUser()
        let answer = try await call(name, body: body, as: acting)
        return ValueCoding.decode(answer, user: acting)
    }

    /// `callFunction(_:with:as:)`, blocking the calling thread.
    @available(*, noasync, message: "use the async callFunction(_:with:as:)")
    public static func callFunction(_ name: String, with parameters: [String: Any] = [:], as user: RTUser? = nil) throws -> Any {
        let body = try ValueCoding.encode(parameters)
        let acting = user ?? RTUser.currentUser()
        let answer = try Callback.wait { try await call(name, body: body, as: acting) }
        return ValueCoding.decode(answer, user: acting)
    }

    /// `callFunction(_:with:as:)` in the background; `block` gets the result or the error.
    public static func callFunctionInBackground(
        _ name: String, with parameters: [String: Any] = [:], as user: RTUser? = nil, block: (@Sendable (Any?, NSError?) -> Void)? = nil
    ) {
        let acting = user ?? RTUser.currentUser()
        let body: JSON
        do {
            body = try ValueCoding.encode(parameters)
        } catch {
            let failure = error.nsError
            Callback.queue.async { block?(nil, failure) }
            return
        }
        Callback.deliver({ (answer: JSON?, error: NSError?) in block?(answer.map { ValueCoding.decode($0, user: acting) }, error) }) {
            try await call(name, body: body, as: acting)
        }
    }

    /// The `result` of the function's answer.
    static func call(_ name: String, body: JSON, as user: RTUser?) async throws -> JSON {
        let client = try RTClient.current()
        let path = "/functions/" + (name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? name)
        let answer = try await client.send(APIRequest(method: "POST", path: path, body: body), as: user)
        return answer["result"] ?? .null
    }
}
