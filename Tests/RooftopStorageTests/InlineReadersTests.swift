import Foundation
import GRDB
import RooftopCore
import RooftopStorage
import Testing

@testable import RooftopSQLite

/// The connections point lookups use on the calling thread: they see every commit and every
/// schema change, never make a caller wait (a taken one sends it to the pool), and leave a
/// cleanly closed database behind.
@Suite struct InlineReadersTests {
    /// A WAL database with a table `t(id, a)` holding one row, in a new directory.
    func database() throws -> (URL, DatabasePool) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-inline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let pool = try DatabasePool(path: dir.appendingPathComponent("data.db").path)
        try pool.write { db in
            try db.execute(sql: "CREATE TABLE t (id TEXT PRIMARY KEY, a TEXT)")
            try db.execute(sql: "INSERT INTO t VALUES ('x', 'first')")
        }
        return (dir, pool)
    }

    func value(_ db: Database, _ sql: String = "SELECT a FROM t WHERE id = ?") throws -> String? {
        let statement = try db.cachedStatement(sql: sql)
        return try String.fetchOne(statement, arguments: ["x"])
    }

    @Test func readsSeeEveryCommitBeforeThem() throws {
        let (dir, pool) = try database()
        defer { try? FileManager.default.removeItem(at: dir) }
        let readers = InlineReaders(path: pool.path, configuration: Configuration(), count: 2)
        defer { readers.close() }
        let first = try readers.read({ try value($0) }, otherwise: { "from the pool" })
        #expect(first == "first")
        for n in 0..<20 {
            try pool.write { try $0.execute(sql: "UPDATE t SET a = ? WHERE id = 'x'", arguments: ["v\(n)"]) }
            #expect(try readers.read({ try value($0) }, otherwise: { "from the pool" }) == "v\(n)")
        }
    }

    @Test func theyCannotWrite() throws {
        let (dir, pool) = try database()
        defer { try? FileManager.default.removeItem(at: dir) }
        let readers = InlineReaders(path: pool.path, configuration: Configuration(), count: 1)
        defer { readers.close() }
        #expect(throws: DatabaseError.self) {
            try readers.read({ try $0.execute(sql: "DELETE FROM t") }, otherwise: {})
        }
        #expect(try pool.read { try value($0) } == "first")
    }

    @Test func aTakenConnectionSendsTheCallerToTheFallbackWithoutWaiting() throws {
        let (dir, pool) = try database()
        defer { try? FileManager.default.removeItem(at: dir) }
        let one = InlineReaders(path: pool.path, configuration: Configuration(), count: 1)
        defer { one.close() }
        // The only connection is held by the outer read: the inner one must not wait for it.
        let inner = try one.read({ _ in try one.read({ try value($0) }, otherwise: { "from the pool" }) }, otherwise: { "outer fell back" })
        #expect(inner == "from the pool")
        let two = InlineReaders(path: pool.path, configuration: Configuration(), count: 2)
        defer { two.close() }
        let nested = try two.read({ _ in try two.read({ try value($0) }, otherwise: { "from the pool" }) }, otherwise: { "outer fell back" })
        #expect(nested == "first", "a second connection is free")
    }

    @Test func schemaChangesMadeElsewhereAreSeen() throws {
        let (dir, pool) = try database()
        defer { try? FileManager.default.removeItem(at: dir) }
        let readers = InlineReaders(path: pool.path, configuration: Configuration(), count: 1)
        defer { readers.close() }
        #expect(try readers.read({ try value($0) }, otherwise: { nil }) == "first")
        // The same cached statement after its table is dropped and rebuilt with other columns.
        try pool.write { db in
            try db.execute(sql: "DROP TABLE t")
            try db.execute(sql: "CREATE TABLE t (b INTEGER, a TEXT, id TEXT PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO t VALUES (1, 'rebuilt', 'x')")
            try db.execute(sql: "CREATE TABLE u (id TEXT PRIMARY KEY, a TEXT)")
            try db.execute(sql: "INSERT INTO u VALUES ('x', 'new table')")
        }
        #expect(try readers.read({ try value($0) }, otherwise: { nil }) == "rebuilt")
        #expect(try readers.read({ try value($0, "SELECT a FROM u WHERE id = ?") }, otherwise: { nil }) == "new table")
    }

    @Test func closedReadersUseTheFallback() throws {
        let (dir, pool) = try database()
        defer { try? FileManager.default.removeItem(at: dir) }
        let readers = InlineReaders(path: pool.path, configuration: Configuration(), count: 1)
        #expect(try readers.read({ try value($0) }, otherwise: { nil }) == "first")
        readers.close()
        #expect(try readers.read({ try value($0) }, otherwise: { "from the pool" }) == "from the pool")
    }

    /// A store whose point lookups used the inline connections still closes to a lone `data.db`.
    @Test func aStoreClosesCleanlyAfterInlineReads() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-inline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SQLiteStore(path: dir.appendingPathComponent("data.db").path)
        let item = try ClassName("Item")
        _ = try await store.write([
            .insert(
                className: item, objectId: "item1", at: ParseDate(millisecondsSince1970: 1),
                write: try ObjectWrite(body: ["n": 1], isCreate: true), grant: SchemaGrant(createClass: true, addFields: true))
        ])
        let request = FindRequest(
            className: item, query: try QueryNode.parse(where: ["objectId": "item1"]), scope: AccessScope(classes: [item: .master]))
        #expect(request.isPointLookup)
        for _ in 0..<3 { #expect(try await store.find(request).map(\.objectId) == ["item1"]) }
        try store.close()
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(left == ["data.db"])
    }
}
