#if Benchmarks
    import Foundation
    import RooftopCore
    import RooftopSQLite
    import RooftopStorage

    /// A database of 1,000,000 notes owned by 10,000 users (100 each), every note readable and
    /// writable by its owner only — the scenario of `Benchmarks/workload/workload.py`'s "list my notes".
    ///
    /// Built once into `path` (about a minute) and reused by later runs.
    enum OwnerQueryFixture {
        static let users = 10_000
        static let notesPerUser = 100
        static let path = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-bench-1m/data.db").path

        static func userId(_ n: Int) -> String { "u" + String(repeating: "0", count: 9 - String(n).count) + String(n) }

        /// Opens the fixture, building it first if needed.
        static func open() async throws -> SQLiteStore {
            let ready = path + ".ready"
            if !FileManager.default.fileExists(atPath: ready) {
                let dir = (path as NSString).deletingLastPathComponent
                try? FileManager.default.removeItem(atPath: dir)
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
                let store = try SQLiteStore(path: path)
                try await populate(store)
                try store.close()
                FileManager.default.createFile(atPath: ready, contents: Data())
            }
            return try SQLiteStore(path: path)
        }

        /// Notes are inserted round-robin over users, so one user's notes are spread over the table
        /// as they would be in real life.
        static func populate(_ store: SQLiteStore) async throws {
            let note = try ClassName("Note")
            let grant = SchemaGrant(createClass: true, addFields: true)
            let at = ParseDate(millisecondsSince1970: 1_700_000_000_000)
            let total = users * notesPerUser
            var n = 0
            while n < total {
                var batch: [WriteOperation] = []
                for i in n..<min(n + 5_000, total) {
                    let owner = userId(i % users)
                    let body: [String: JSON] = [
                        "title": .string("note \(i)"), "done": .bool(i % 3 == 0),
                        "owner": ["__type": "Pointer", "className": "_User", "objectId": .string(owner)],
                        "ACL": .object([owner: ["read": true, "write": true]]),
                    ]
                    let id = "n" + String(repeating: "0", count: 9 - String(i).count) + String(i)
                    batch.append(.insert(className: note, objectId: id, at: at, write: try ObjectWrite(body: body, isCreate: true), grant: grant))
                }
                _ = try await store.write(batch)
                n += batch.count
            }
        }
    }
#endif
