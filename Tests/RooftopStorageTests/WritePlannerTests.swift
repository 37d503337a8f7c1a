import RooftopCore
import RooftopSQLite
import RooftopStorage
import Testing

/// The write rules both adapters share: what a write may do to its class's schema
/// (`SchemaGrowth`), the row it leaves (`PlannedRow`), and what a schema change removes. Pure
/// values in, values or a `ParseError` out: no store is opened.
@Suite struct SchemaGrowthTests {
    let note: ClassName
    let both = SchemaGrant(createClass: true, addFields: true)
    let none = SchemaGrant(createClass: false, addFields: false)

    init() throws { note = try ClassName("Note") }

    func stored(_ fields: [String: FieldType]) -> ClassSchema { ClassSchema(className: note, fields: fields) }
    func create(_ body: [String: JSON]) throws -> ObjectWrite { try ObjectWrite(body: body, isCreate: true) }
    func update(_ body: [String: JSON]) throws -> ObjectWrite { try ObjectWrite(body: body, isCreate: false) }

    @Test func firstWriteFixesTheFieldType() throws {
        let growth = try SchemaGrowth(note, stored: stored([:]), write: try create(["score": 1, "title": "a"]), grant: both)
        #expect(growth.needsSave)
        #expect(growth.schema.fields["score"] == .number)
        #expect(growth.schema.fields["title"] == .string)
        #expect(growth.schema.fields["objectId"] == .string)
    }

    @Test func aKnownFieldOfItsTypeLeavesTheSchemaAsStored() throws {
        let schema = stored(["score": .number])
        let growth = try SchemaGrowth(note, stored: schema, write: try create(["score": 2]), grant: none)
        #expect(!growth.needsSave)
        #expect(growth.schema == schema)
    }

    @Test func anotherTypeIs111WithItsMessage() throws {
        #expect(throws: ParseError(.incorrectType, "schema mismatch for Note.score; expected Number but got String")) {
            try SchemaGrowth(note, stored: stored(["score": .number]), write: try create(["score": "high"]), grant: both)
        }
    }

    @Test func aNestedKeyNeedsAnObjectField() throws {
        let write = try update(["score.x": 1])
        #expect(throws: ParseError(.incorrectType, "cannot set a nested key on score of type Number")) {
            try SchemaGrowth(note, stored: stored(["score": .number]), write: write, grant: both)
        }
        let growth = try SchemaGrowth(note, stored: stored(["meta": .object]), write: try update(["meta.x": 1]), grant: none)
        #expect(!growth.needsSave)
    }

    @Test func relationsCannotBeNested() throws {
        let ref = ObjectRef(className: note, objectId: "n123456789")
        let write = ObjectWrite(operations: [(FieldPath(field: try FieldName("meta"), subkeys: ["r"]), .relation(add: [ref], remove: []))])
        #expect(throws: ParseError(.invalidKeyName, "relations cannot be nested")) {
            try SchemaGrowth(note, stored: stored(["meta": .object]), write: write, grant: both)
        }
    }

    @Test func creatingTheClassNeedsTheGrant() throws {
        let write = try create(["x": 1])
        #expect(throws: ParseError(.operationForbidden, "This user is not allowed to access non-existent class: Note")) {
            try SchemaGrowth(note, stored: nil, write: write, grant: SchemaGrant(createClass: false, addFields: true))
        }
        let growth = try SchemaGrowth(note, stored: nil, write: write, grant: SchemaGrant(createClass: true, addFields: false))
        #expect(growth.needsSave)
        #expect(growth.schema == ClassSchema(className: note, fields: ["x": .number]))
    }

    /// The grant is judged before the types: a caller who may not create the class learns
    /// nothing about what its body would have done.
    @Test func aRefusedClassIsRefusedBeforeItsTypes() throws {
        let write = try create(["username": 1])
        #expect(throws: ParseError(.operationForbidden, "This user is not allowed to access non-existent class: _User")) {
            try SchemaGrowth(.user, stored: nil, write: write, grant: none)
        }
    }

    @Test func addingAFieldNeedsTheGrant() throws {
        let schema = stored(["score": .number])
        let noAdd = SchemaGrant(createClass: true, addFields: false)
        #expect(throws: ParseError(.operationForbidden, "Permission denied for action addField on class Note.")) {
            try SchemaGrowth(note, stored: schema, write: try create(["score": 1, "title": "a"]), grant: noAdd)
        }
        #expect(try SchemaGrowth(note, stored: schema, write: try create(["score": 1]), grant: noAdd).needsSave == false)
    }

    @Test func relationAndPointerTargetsAreRecorded() throws {
        let write = try create([
            "owner": ["__type": "Pointer", "className": "_User", "objectId": "u123456789"],
            "likes": ["__op": "AddRelation", "objects": [["__type": "Pointer", "className": "_User", "objectId": "u123456789"]]],
        ])
        let growth = try SchemaGrowth(note, stored: stored([:]), write: write, grant: both)
        #expect(growth.schema.fields["owner"] == .pointer(.user))
        #expect(growth.schema.fields["likes"] == .relation(.user))
        #expect(growth.schema.relationFields == ["likes"])
    }

    /// The lock-free first look (PostgreSQL): the schema when nothing is added, nil when the
    /// write must take the lock, and the type refusals without waiting for the lock.
    @Test func theUnlockedLookSaysWhetherTheSchemaMustGrow() throws {
        let schema = stored(["score": .number])
        #expect(try SchemaGrowth.unchanged(schema, by: try create(["score": 1])) == schema)
        #expect(try SchemaGrowth.unchanged(schema, by: try create(["title": "a"])) == nil)
        #expect(throws: ParseError(.incorrectType, "schema mismatch for Note.score; expected Number but got Boolean")) {
            try SchemaGrowth.unchanged(schema, by: try create(["score": true]))
        }
    }
}

@Suite struct PlannedRowTests {
    let at = ParseDate(millisecondsSince1970: 1_700_000_000_000)
    let created = ParseDate(millisecondsSince1970: 1_600_000_000_000)

    func stored(_ fields: [String: JSON], acl: ACL? = nil) -> StoredObject {
        StoredObject(objectId: "o123456789", createdAt: created, updatedAt: created, acl: acl, fields: fields)
    }

    func updated(_ fields: [String: JSON], _ body: [String: JSON], acl: ACL? = nil) throws -> PlannedRow {
        try PlannedRow.updating(stored(fields, acl: acl), at: at, write: try ObjectWrite(body: body, isCreate: false))
    }

    @Test func anInsertIsCreatedAndUpdatedAtOnce() throws {
        let write = try ObjectWrite(body: ["b": 2, "a": "x", "rel": ["__type": "Relation", "className": "_User"]], isCreate: true)
        let row = try PlannedRow.inserting("o123456789", at: at, write: write)
        #expect(row.object == StoredObject(objectId: "o123456789", createdAt: at, updatedAt: at, acl: nil, fields: ["a": "x", "b": 2]))
        // Canonical: sorted keys, so equal documents compare equal in SQL; a relation's
        // declaration is not stored.
        #expect(row.document == #"{"a":"x","b":2}"#)
        #expect(row.echo.isEmpty)
    }

    @Test func anUpdateKeepsCreatedAtAndMovesUpdatedAt() throws {
        let row = try updated(["a": 1], ["a": 2])
        #expect(row.object.createdAt == created)
        #expect(row.object.updatedAt == at)
        #expect(row.object.fields == ["a": 2])
        #expect(row.document == #"{"a":2}"#)
    }

    @Test func incrementAddsToTheStoredNumberAndEchoes() throws {
        let row = try updated(["n": 1], ["n": ["__op": "Increment", "amount": 2], "m": ["__op": "Increment", "amount": 5]])
        #expect(row.object.fields == ["n": 3, "m": 5])
        #expect(row.echo == ["n": 3, "m": 5])
        #expect(throws: ParseError(.invalidJSON, "Cannot increment a field that is not a number: s")) {
            try updated(["s": "x"], ["s": ["__op": "Increment", "amount": 1]])
        }
    }

    @Test func arrayOperationsApplyToTheStoredArray() throws {
        #expect(try updated(["t": ["a"]], ["t": ["__op": "Add", "objects": ["a", "b"]]]).object.fields["t"] == ["a", "a", "b"])
        let unique = try updated(["t": ["a"]], ["t": ["__op": "AddUnique", "objects": ["a", "b"]]])
        #expect(unique.object.fields["t"] == ["a", "b"])
        #expect(unique.echo["t"] == ["a", "b"])
        #expect(try updated(["t": ["a", "b", "a"]], ["t": ["__op": "Remove", "objects": ["a"]]]).object.fields["t"] == ["b"])
        #expect(throws: ParseError(.incorrectType, "field t is not an array")) {
            try updated(["t": 1], ["t": ["__op": "Add", "objects": ["a"]]])
        }
    }

    @Test func deleteAndDotPathsChangeOnlyTheirField() throws {
        let row = try updated(["gone": 1, "meta": ["a": 1], "kept": true], ["gone": ["__op": "Delete"], "meta.b": 2])
        #expect(row.object.fields == ["meta": ["a": 1, "b": 2], "kept": true])
        #expect(row.document == #"{"kept":true,"meta":{"a":1,"b":2}}"#)
    }

    @Test func theACLBecomesSortedPermissionLists() throws {
        let write = try ObjectWrite(body: ["ACL": ["u2": ["read": true, "write": true], "*": ["read": true], "u1": ["read": true]]], isCreate: true)
        let row = try PlannedRow.inserting("o123456789", at: at, write: write)
        #expect(row.permissionLists?.read == ["*", "u1", "u2"])
        #expect(row.permissionLists?.write == ["u2"])
        #expect(row.permissionText.read == #"["*","u1","u2"]"#)
        #expect(row.permissionText.write == #"["u2"]"#)
        let open = try PlannedRow.inserting("o123456789", at: at, write: try ObjectWrite(body: [:], isCreate: true))
        #expect(open.permissionLists == nil)
        #expect(open.permissionText.read == nil && open.permissionText.write == nil)
    }

    @Test func anUpdateKeepsReplacesOrClearsTheStoredACL() throws {
        let mine = ACL(readers: ["u1"], writers: ["u1"])
        #expect(try updated([:], ["a": 1], acl: mine).object.acl == mine)
        #expect(try updated([:], ["ACL": ["*": ["read": true]]], acl: mine).object.acl == ACL(readers: ["*"]))
        let cleared = try updated([:], ["ACL": ["__op": "Delete"]], acl: mine)
        #expect(cleared.object.acl == nil)
        #expect(cleared.permissionLists == nil)
    }

    @Test func relationOperationsBecomeJoinTableEdits() throws {
        let user: JSON = ["__type": "Pointer", "className": "_User", "objectId": "u123456789"]
        let other: JSON = ["__type": "Pointer", "className": "_User", "objectId": "u987654321"]
        let write = try ObjectWrite(
            body: ["likes": ["__op": "AddRelation", "objects": [user, other]], "fans": ["__op": "RemoveRelation", "objects": [user]], "n": 1],
            isCreate: false)
        let edits = RelationEdit.of(write)
        #expect(edits.map(\.field) == ["fans", "likes"])
        #expect(edits.map(\.adds) == [[], ["u123456789", "u987654321"]])
        #expect(edits.map(\.removes) == [["u123456789"], []])
        // Members live in join tables, never in the document.
        #expect(try PlannedRow.updating(stored([:]), at: at, write: write).object.fields == ["n": 1])
    }
}

@Suite struct SchemaRemovalTests {
    @Test func removedFieldsAndIndexesInNameOrder() throws {
        let note = try ClassName("Note")
        let old = ClassSchema(
            className: note, fields: ["b": .number, "a": .relation(.user), "kept": .string], indexes: ["by_b": ["b": 1], "by_kept": ["kept": 1]])
        let next = ClassSchema(className: note, fields: ["kept": .string], indexes: ["by_kept": ["kept": 1]])
        let removal = SchemaRemoval(from: old, to: next)
        #expect(removal.fields.map(\.name) == ["a", "b"])
        #expect(removal.fields.map(\.isRelation) == [true, false])
        #expect(removal.indexes == ["by_b"])
        #expect(SchemaRemoval(from: next, to: next).fields.isEmpty)
    }

    @Test func dropRefusalsKeepTheirTexts() throws {
        let note = try ClassName("Note")
        #expect(SchemaRemoval.missingClass(note) == ParseError(.invalidClassName, "Class Note does not exist."))
        #expect(
            SchemaRemoval.classNotEmpty(note) == ParseError(.invalidSchemaOperation, "Class Note is not empty, contains objects, cannot drop schema.")
        )
    }

    /// The write guard checks the write list, never the read list.
    @Test func theWriteGuardChecksTheWriteList() throws {
        let note = try ClassName("Note")
        let condition = QueryCompiler.writeGuard(
            Access(aclGroup: ["*", "u1"]), schema: ClassSchema(className: note), table: "Note", dialect: SQLiteDialect())
        #expect(condition.sql.contains("_wperm"))
        #expect(!condition.sql.contains("_rperm"))
        #expect(condition.bindings.count == 2)
        #expect(QueryCompiler.writeGuard(.master, schema: ClassSchema(className: note), table: "Note", dialect: SQLiteDialect()).sql == "1 = 1")
    }
}

/// A unique violation names its index; the duplicate-value error names the field.
@Suite struct UniqueIndexNameTests {
    @Test func theFieldIsReadBackFromTheIndexName() {
        let name = IndexPlan.uniqueIndexName("email", table: "_User")
        #expect(name == "_User_unique_email")
        #expect(IndexPlan.uniqueField(in: name) == "email")
        #expect(IndexPlan.uniqueField(in: "index '_User_unique__auth_data_github'") == "_auth_data_github")
        #expect(IndexPlan.uniqueField(in: "Note.objectId") == nil)
    }
}
