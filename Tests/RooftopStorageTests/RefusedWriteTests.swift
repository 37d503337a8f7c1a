import Foundation
import GRDB
import RooftopCore
import RooftopStorage
import Testing

@testable import RooftopSQLite

/// A lone update or delete the caller may not make is refused by a read on the calling thread,
/// without the writer: it answers while the writer is busy, with the writer's own answer (101),
/// and every answer the writer gives first (111 for a type, a new field's refusal) stays as it was.
@Suite struct RefusedWriteTests {
    let note: ClassName
    let grant = SchemaGrant(createClass: true, addFields: true)
    let owner = Access(aclGroup: ["*", "u1"], userId: "u1")
    let stranger = Access(aclGroup: ["*", "u2"], userId: "u2")

    init() throws { note = try ClassName("Note") }

    /// A store with one note, `n1`, that only `u1` may read and write, and a `token` field.
    func store() async throws -> (URL, SQLiteStore) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-refusals-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let store = try SQLiteStore(path: dir.appendingPathComponent("data.db").path)
        let body: [String: JSON] = ["title": "mine", "token": "t1", "ACL": ["u1": ["read": true, "write": true]]]
        _ = try await store.write([
            .insert(
                className: note, objectId: "n1", at: ParseDate(millisecondsSince1970: 1), write: try ObjectWrite(body: body, isCreate: true),
                grant: grant)
        ])
        _ = try await store.catalog()
        return (dir, store)
    }

    func update(_ body: [String: JSON], by access: Access, id: String = "n1") throws -> WriteOperation {
        .update(
            className: note, objectId: id, at: ParseDate(millisecondsSince1970: 2), write: try ObjectWrite(body: body, isCreate: false),
            access: access, grant: grant)
    }

    func code(_ operation: WriteOperation, _ store: SQLiteStore) async -> Int? {
        do {
            _ = try await store.write([operation])
            return nil
        } catch let error as ParseError {
            return error.code.rawValue
        } catch {
            return -1
        }
    }

    func title(_ store: SQLiteStore) async throws -> String? {
        let request = FindRequest(
            className: note, query: try QueryNode.parse(where: ["objectId": "n1"]), scope: AccessScope(classes: [note: .master]))
        return try await store.find(request).first?.fields["title"]?.stringValue
    }

    @Test func refusalsAnswerWhileTheWriterIsBusy() async throws {
        let (dir, store) = try await store()
        defer {
            try? store.close()
            try? FileManager.default.removeItem(at: dir)
        }
        // Hold the writer until the refusals are in (or 10 s pass, so a regression fails, not hangs).
        let release = DispatchSemaphore(value: 0)
        let held = DispatchSemaphore(value: 0)
        let released = LockedValue(false)
        let writerHeld = Task.detached {
            try await store.writeTransaction { _ in
                held.signal()
                _ = release.wait(timeout: .now() + 10)
                released.withLock { $0 = true }
            }
        }
        guard held.wait(timeout: .now() + 10) == .success else {
            Issue.record("the writer never started")
            release.signal()
            return
        }
        #expect(await code(try update(["title": "theirs"], by: stranger), store) == 101)
        #expect(await code(.delete(className: note, objectId: "n1", access: stranger), store) == 101)
        #expect(await code(try update(["title": "x"], by: owner, id: "missing"), store) == 101)
        // A single-use value already spent (here: never held) is refused the same way.
        #expect(await code(try update(["title": "x"], by: owner.requiring(try FieldName("token"), equals: "spent")), store) == 101)
        // The schema's refusal of the body comes first, as the writer gives it.
        #expect(await code(try update(["title": 7], by: stranger), store) == 111)
        #expect(!released.withLock { $0 }, "the refusals waited for the writer")
        release.signal()
        try await writerHeld.value
        #expect(try await title(store) == "mine")
    }

    @Test func permittedWritesStillReachTheWriter() async throws {
        let (dir, store) = try await store()
        defer {
            try? store.close()
            try? FileManager.default.removeItem(at: dir)
        }
        #expect(await code(try update(["title": "edited"], by: owner), store) == nil)
        #expect(try await title(store) == "edited")
        #expect(await code(try update(["title": "again"], by: owner.requiring(try FieldName("token"), equals: "t1")), store) == nil)
        #expect(try await title(store) == "again")
        #expect(await code(.delete(className: note, objectId: "n1", access: owner), store) == nil)
        #expect(try await title(store) == nil)
    }

    /// The writer's order stays: a type error (111) or a refused new field comes before 101.
    @Test func answersTheWriterGivesFirstAreUnchanged() async throws {
        let (dir, store) = try await store()
        defer {
            try? store.close()
            try? FileManager.default.removeItem(at: dir)
        }
        #expect(await code(try update(["title": 7], by: stranger), store) == 111)
        let noNewFields = WriteOperation.update(
            className: note, objectId: "n1", at: ParseDate(millisecondsSince1970: 2), write: try ObjectWrite(body: ["extra": 1], isCreate: false),
            access: stranger, grant: SchemaGrant(createClass: false, addFields: false))
        #expect(await code(noNewFields, store) == 119)
        // A new field the caller may add: left to the writer, which grows the schema, finds no
        // writable row and rolls back.
        #expect(await code(try update(["extra": 1], by: stranger), store) == 101)
        #expect(try await store.schema(note)?.fields["extra"] == nil)
        #expect(try await title(store) == "mine")
    }

    /// Decided only at the schema version the cached schema was read at: after a change made
    /// elsewhere (another process, or a commit not yet remembered), the writer decides.
    @Test func aSchemaChangedElsewhereLeavesTheDecisionToTheWriter() async throws {
        let (dir, store) = try await store()
        defer {
            try? store.close()
            try? FileManager.default.removeItem(at: dir)
        }
        let refused = try update(["title": "theirs"], by: stranger)
        #expect(try store.refusesWithoutWriting(refused))
        #expect(try !store.refusesWithoutWriting(try update(["title": "edited"], by: owner)))
        let other = try DatabaseQueue(path: store.path)
        try await other.write { try $0.execute(sql: "UPDATE _SCHEMA_VERSION SET version = version + 1") }
        try other.close()
        #expect(try !store.refusesWithoutWriting(refused))
        #expect(await code(refused, store) == 101, "the writer's answer")
        // The next committed write remembers the new version: refusals are decided here again.
        #expect(await code(try update(["title": "edited"], by: owner), store) == nil)
        #expect(try store.refusesWithoutWriting(refused))
    }

    /// A second close fails instead of waiting for ever or touching closed connections.
    @Test func aStoreClosesTwice() async throws {
        let (dir, store) = try await store()
        defer { try? FileManager.default.removeItem(at: dir) }
        try store.close()
        #expect(throws: (any Error).self) { try store.close() }
    }
}
