public import Foundation
import RooftopCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RTFile {
    /// Uploads the file (once: a saved file is not sent again) as the current user, reporting
    /// the fraction sent (0…1) to `progress`; afterwards `name` is the server's unique name and
    /// `url` where it is served.
    public func save(progress: (@Sendable (Double) -> Void)? = nil) async throws {
        guard isDirty else { return }
        let client = try RTClient.current()
        let user = client.users.activeUser
        if let user, user.isLazy { try await user.save() }
        let token = try client.sessionToken(of: user)
        let segment = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))
        var request = URLRequest(
            url: try client.transport.url("/files/" + (name.addingPercentEncoding(withAllowedCharacters: segment) ?? name), query: []))
        request.httpMethod = "POST"
        client.transport.addParseHeaders(to: &request, sessionToken: token)
        // Without a type the server takes it from the name's extension.
        request.setValue(contentType ?? "application/octet-stream", forHTTPHeaderField: "Content-Type")
        let (data, response) = try await UploadDelegate.upload(request, data: upload.data, file: upload.file, progress: progress)
        let answer = try Transport.decode(data, response)
        guard let name = answer["name"]?.stringValue, let url = answer["url"]?.stringValue.flatMap(URL.init(string:)) else {
            throw RTError(.invalidJSON, "The server's answer to a file upload has no name and url.")
        }
        saved(name: name, url: url)
        progress?(1)
    }

    /// The file's bytes: the local ones before it is saved, else downloaded from `url`.
    public func getData() async throws -> Data {
        if isDirty {
            if let data = upload.data { return data }
            if let file = upload.file { return try Data(contentsOf: file) }
        }
        guard let url else { throw RTError(.otherCause, "The file \(name) has no URL.") }
        let client = try RTClient.current()
        let (data, response) = try await client.transport.session.data(from: url)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else {
            _ = try Transport.decode(data, response)
            throw RTError(.otherCause, "The file \(name) could not be downloaded (HTTP \(status)).")
        }
        return data
    }
}

/// One upload on a session of its own, whose delegate sees the bytes go out.
final class UploadDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private let progress: (@Sendable (Double) -> Void)?
    private var received = Data()
    private var continuation: CheckedContinuation<(Data, URLResponse), any Error>?

    private init(progress: (@Sendable (Double) -> Void)?) {
        self.progress = progress
    }

    /// Sends `request` with `data` or the contents of `file` as its body.
    static func upload(
        _ request: URLRequest, data: Data?, file: URL?, progress: (@Sendable (Double) -> Void)?
    ) async throws -> (Data, URLResponse) {
        let delegate = UploadDelegate(progress: progress)
        let settings = URLSessionConfiguration.ephemeral
        settings.httpCookieStorage = nil
        settings.urlCache = nil
        let session = URLSession(configuration: settings, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        return try await withCheckedThrowingContinuation { continuation in
            delegate.lock.withLock { delegate.continuation = continuation }
            let task: URLSessionUploadTask
            if let file {
                task = session.uploadTask(with: request, fromFile: file)
            } else {
                task = session.uploadTask(with: request, from: data ?? Data())
            }
            task.resume()
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64, totalBytesExpectedToSend: Int64
    ) {
        guard totalBytesExpectedToSend > 0 else { return }
        progress?(min(1, Double(totalBytesSent) / Double(totalBytesExpectedToSend)))
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock { received.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, data) = lock.withLock {
            let pending = self.continuation
            self.continuation = nil
            return (pending, received)
        }
        if let error {
            continuation?.resume(throwing: RTError.from(error))
        } else if let response = task.response {
            continuation?.resume(returning: (data, response))
        } else {
            continuation?.resume(throwing: RTError(.connectionFailed, "The upload ended without an answer."))
        }
    }
}
