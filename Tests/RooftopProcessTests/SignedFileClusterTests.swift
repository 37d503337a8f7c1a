import Foundation
import RooftopCore
import RooftopServices
import RooftopTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `fileAccess: signed` on several nodes sharing one PostgreSQL database (files in it): a URL
/// one node signs downloads from another; a node with another `fileKey` refuses it.
@Suite(.serialized) struct SignedFileClusterTests {
    @Test func nodesAcceptEachOthersSignedURLs() async throws {
        let signed = { (files: inout FilesConfiguration) in files.access = .signed }
        let cluster = try await ClusterNodes.start(files: signed)
        let (otherStore, otherStoreTask) = try await TestStores.postgres(url: cluster.databaseURL, timeout: .seconds(10))
        // A third node on the same database whose `fileKey` differs.
        let other = try await ClusterNodes.serve(
            otherStore,
            files: { files in
                files.access = .signed
                files.fileKey = String(repeating: "k", count: 40)
            })
        defer {
            other.task.cancel()
            otherStoreTask.cancel()
        }
        do {
            let upload = try await upload(cluster)
            let components = try #require(URLComponents(string: upload))
            let target = components.percentEncodedPath.replacingOccurrences(of: "/parse", with: "") + "?" + (components.percentEncodedQuery ?? "")
            #expect(try await download(port: cluster.nodes[1].port, target) == 200)
            #expect(try await download(port: cluster.nodes[0].port, target) == 200)
            #expect(try await download(port: other.port, target) == 403)
            #expect(
                try await download(port: cluster.nodes[1].port, components.percentEncodedPath.replacingOccurrences(of: "/parse", with: "")) == 403)
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }

    /// Uploads a picture through node 0 with the master key: its signed URL.
    func upload(_ cluster: ClusterNodes) async throws -> String {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(cluster.nodes[0].port)/parse/files/avatar.png")))
        request.httpMethod = "POST"
        request.setValue(testAppId, forHTTPHeaderField: "X-Parse-Application-Id")
        request.setValue(testMasterKey, forHTTPHeaderField: "X-Parse-Master-Key")
        request.setValue("image/png", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(pngBytes)
        let (data, _) = try await URLSession.shared.data(for: request)
        return try #require(try JSONParser.parse(data)["url"]?.stringValue)
    }

    /// The status of a download of `target` (below the mount path) from the node at `port`.
    func download(port: Int, _ target: String) async throws -> Int {
        let request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)/parse\(target)")))
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }
}
