// The floor under the shared workload's cheap phases (docs/benchmarks.md §0, "Above the floor"):
// a bare Hummingbird 2 application, as its template builds one, with two routes and nothing
// else: no session check, no routing table of ours, no JSON parsing, no access control.
//
//   GET /floor/handler     a constant JSON answer the size of a who-am-I
//   GET /floor/notes/:id   one point read by a unique key from an SQLite file through GRDB,
//                          on the calling thread, answered with the stored text as it is
//
// `scripts/bench` runs `Benchmarks/workload/floor.py` against it with the workload's client,
// concurrency and request count, so each of Rooftop's phases can be stated as a multiple of
// what any Swift server on this machine pays for the same HTTP exchange.
//
// It serves on as many event loops as `rooftop serve` does by default (one per core but one):
// the loop count alone moves the cost of a request on this machine (docs/benchmarks.md, "Event
// loops"), so the floor and Rooftop are measured the same way.
//
// Usage: RooftopFloor --port N --data-dir DIR [--notes 1000] [--loops N]
import Foundation
import GRDB
import Hummingbird
import NIOCore
import NIOPosix

/// The command line: `--port`, `--data-dir`, `--notes`, `--loops`.
struct FloorOptions {
    var port = 8080
    var directory = "."
    var notes = 1000
    var loops = max(1, System.coreCount - 1)

    init(_ arguments: [String]) throws {
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw FloorError.usage }
            switch flag {
            case "--port": port = Int(value) ?? -1
            case "--data-dir": directory = value
            case "--notes": notes = Int(value) ?? -1
            case "--loops": loops = Int(value) ?? -1
            default: throw FloorError.usage
            }
        }
        guard (0...65535).contains(port), (1...1_000_000).contains(notes), (1...1024).contains(loops) else { throw FloorError.usage }
    }
}

/// Why the floor server would not start.
enum FloorError: Error, CustomStringConvertible {
    case usage

    var description: String { "usage: RooftopFloor --port N --data-dir DIR [--notes 1..1000000] [--loops 1..1024]" }
}

/// A table shaped like a Rooftop class table (an integer key, the unique objectId, the
/// document as JSON text) with `count` notes of a 256-byte body, ids `n0`, `n1`, ….
func seed(_ pool: DatabasePool, count: Int) throws {
    try pool.write { db in
        try db.execute(
            sql: "CREATE TABLE IF NOT EXISTS Note (id INTEGER PRIMARY KEY, objectId TEXT NOT NULL UNIQUE, document TEXT NOT NULL)")
        let body = String(repeating: "x", count: 256)
        for index in 0..<count {
            let id = "n\(index)"
            let document =
                #"{"objectId":"\#(id)","title":"note \#(index)","body":"\#(body)","score":7,"#
                + #""owner":{"__type":"Pointer","className":"_User","objectId":"u0"},"#
                + #""createdAt":"2026-11-26T10:00:00.000Z","updatedAt":"2026-11-26T10:00:00.000Z"}"#
            try db.execute(sql: "INSERT OR IGNORE INTO Note (objectId, document) VALUES (?, ?)", arguments: [id, document])
        }
    }
}

/// One point read on the calling thread through GRDB's pool (`unsafeRead`), as a plain
/// Hummingbird and GRDB app would read: Rooftop's own point lookups skip the pool's
/// synchronisation (`InlineReaders`), so its phases can come close to this floor.
func note(_ pool: DatabasePool, id: String) throws -> String? {
    try pool.unsafeRead { db in
        try String.fetchOne(db.cachedStatement(sql: "SELECT document FROM Note WHERE objectId = ?"), arguments: [id])
    }
}

let options: FloorOptions
do {
    options = try FloorOptions(CommandLine.arguments)
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(2)
}
let pool = try DatabasePool(path: options.directory + "/floor.sqlite")
try seed(pool, count: options.notes)

let whoami = ByteBuffer(
    string: #"{"objectId":"u0AbCdEfGh","username":"bench_user_0","createdAt":"2026-11-26T10:00:00.000Z","#
        + #""updatedAt":"2026-11-26T10:00:00.000Z","ACL":{"*":{"read":true},"u0AbCdEfGh":{"read":true,"write":true}},"#
        + #""sessionToken":"r:0123456789abcdef0123456789abcdef"}"#)
let json: HTTPFields = [.contentType: "application/json"]
let router = Router()
router.get("floor/handler") { _, _ in
    Response(status: .ok, headers: json, body: .init(byteBuffer: whoami))
}
router.get("floor/notes/:id") { _, context in
    guard let id = context.parameters.get("id"), let document = try note(pool, id: id) else {
        throw HTTPError(.notFound)
    }
    return Response(status: .ok, headers: json, body: .init(byteBuffer: ByteBuffer(string: document)))
}
let app = Application(
    router: router, configuration: .init(address: .hostname("127.0.0.1", port: options.port)),
    eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup(numberOfThreads: options.loops)))
try await app.runService()
