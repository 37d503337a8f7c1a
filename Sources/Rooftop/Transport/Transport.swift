import Foundation
import RooftopCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One REST call: method, path below the server URL, query, JSON body, and the session it
/// runs as.
struct APIRequest: Sendable {
    var method: String
    var path: String
    var query: [(String, String)] = []
    var body: JSON? = nil
    var sessionToken: String? = nil

    /// Reads are safe to repeat after a network failure; writes are not (a create could land twice).
    var isIdempotent: Bool { method == "GET" || (method == "POST" && body?["_method"] == "GET") }
}

/// Sends requests to the server with the Parse headers, decodes answers, maps errors.
struct Transport: Sendable {
    let configuration: RTConfiguration
    let installationId: String
    let session: URLSession

    init(configuration: RTConfiguration, installationId: String) {
        self.configuration = configuration
        self.installationId = installationId
        let settings = URLSessionConfiguration.ephemeral
        settings.timeoutIntervalForRequest = configuration.requestTimeout
        settings.httpCookieStorage = nil
        settings.urlCache = nil
        session = URLSession(configuration: settings)
    }

    /// The server's URL joined with `path` (which starts with `/`).
    func url(_ path: String, query: [(String, String)]) throws(RTError) -> URL {
        let base = configuration.server.hasSuffix("/") ? String(configuration.server.dropLast()) : configuration.server
        guard var components = URLComponents(string: base + path), components.scheme == "http" || components.scheme == "https" else {
            throw RTError(.otherCause, "The server URL \"\(configuration.server)\" is not an http or https URL.")
        }
        if !query.isEmpty {
            components.percentEncodedQuery = query.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        }
        guard let url = components.url else { throw RTError(.otherCause, "Cannot build a URL for \(path).") }
        return url
    }

    /// The path of the server URL (e.g. `/parse`), which batch sub-requests start with.
    var mountPath: String {
        let path = URLComponents(string: configuration.server)?.path ?? ""
        return path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// The application id, client key, session, installation and client version headers.
    func addParseHeaders(to urlRequest: inout URLRequest, sessionToken: String?) {
        urlRequest.timeoutInterval = configuration.requestTimeout
        urlRequest.setValue(configuration.applicationId, forHTTPHeaderField: "X-Parse-Application-Id")
        if let key = configuration.clientKey { urlRequest.setValue(key, forHTTPHeaderField: "X-Parse-Client-Key") }
        if let token = sessionToken { urlRequest.setValue(token, forHTTPHeaderField: "X-Parse-Session-Token") }
        urlRequest.setValue(installationId, forHTTPHeaderField: "X-Parse-Installation-Id")
        urlRequest.setValue("swift\(Rooftop.version)", forHTTPHeaderField: "X-Parse-Client-Version")
    }

    /// Sends `request`; the decoded JSON of a 2xx answer, else the server's Parse error.
    func send(_ request: APIRequest) async throws(RTError) -> JSON {
        var urlRequest = URLRequest(url: try url(request.path, query: request.query))
        urlRequest.httpMethod = request.method
        addParseHeaders(to: &urlRequest, sessionToken: request.sessionToken)
        if let body = request.body {
            urlRequest.setValue("application/json; charset=utf-8", forHTTPHeaderField: "Content-Type")
            urlRequest.httpBody = Data(JSONWriter.bytes(body))
        }
        var attempt = 0
        while true {
            do {
                let (data, response) = try await session.data(for: urlRequest)
                return try Self.decode(data, response)
            } catch let error as RTError {
                throw error
            } catch {
                let failure = RTError.from(error)
                guard request.isIdempotent, attempt < configuration.maxRetries, !(error is CancellationError) else { throw failure }
                attempt += 1
                try? await Task.sleep(for: .milliseconds(200 * attempt * attempt))
            }
        }
    }

    /// A 2xx JSON body, or the Parse error of any other answer.
    static func decode(_ data: Data, _ response: URLResponse) throws(RTError) -> JSON {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let json = try? JSONParser.parse(data)
        if (200..<300).contains(status) {
            guard let json else { throw RTError(.invalidJSON, "The server's answer is not JSON (HTTP \(status)).") }
            return json
        }
        if let code = json?["code"]?.numberValue, let message = json?["error"]?.stringValue {
            throw RTError(RTErrorCode(rawValue: Int(code)), message)
        }
        if let message = json?["error"]?.stringValue { throw RTError(status == 404 ? .objectNotFound : .otherCause, message) }
        throw RTError(status == 429 ? .connectionFailed : .otherCause, "The server answered HTTP \(status) without a Parse error.")
    }

    /// Percent-encodes a query component (`+`, `&`, `=` included).
    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "+&=?/")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
