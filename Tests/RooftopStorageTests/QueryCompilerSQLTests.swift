import Foundation
import RooftopCore
import RooftopPostgres
import RooftopSQLite
import RooftopStorage
import Testing

/// The exact SQL and bindings the query compiler produces for each dialect, without any database:
/// every value is bound, and only validated class and field names reach the SQL text.
@Suite struct QueryCompilerSQLTests {
    // MARK: Fixture

    static let note = try! ClassName("Note")
    static let noteSchema = ClassSchema(
        className: note,
        fields: [
            "title": .string, "score": .number, "done": .boolean, "owner": .pointer(.user), "due": .date, "tags": .array,
            "meta": .object, "editors": .array,
        ])
    static let catalog = QueryCompiler.Catalog(
        schemas: [note: noteSchema, .user: ClassSchema(className: .user)], tables: [note: "Note", .user: "_User"])

    /// A signed-in user with two roles.
    static let user = Access(aclGroup: ["*", "u1", "role:Admins", "role:Staff"], userId: "u1")
    static let userGroup: [SQLValue] = [.text("*"), .text("u1"), .text("role:Admins"), .text("role:Staff")]

    static let sqliteSelect = #"SELECT objectId, createdAt, updatedAt, _rperm, _wperm, data FROM "Note" WHERE "#
    static let sqliteACL = "(_rperm IS NULL OR EXISTS (SELECT 1 FROM json_each(_rperm) WHERE value IN (?, ?, ?, ?)))"
    static let pgSelect =
        #"SELECT objectId, createdAt, updatedAt, array_to_json(_rperm)::text, array_to_json(_wperm)::text, (data)::text FROM "Note" WHERE "#
    static let pgACL = "(_rperm IS NULL OR _rperm && ARRAY[$1, $2, $3, $4]::text[])"

    static func request(
        _ whereJSON: String, params: String = "{}", className: ClassName = note, scope: [ClassName: Access] = [note: user]
    ) throws -> FindRequest {
        let query = try QueryNode.parse(where: JSONParser.parse(whereJSON))
        let options = try FindOptions(params: JSONParser.parse(params).objectValue ?? [:], defaultLimit: 100, maxLimit: 1000, limits: QueryLimits())
        return FindRequest(className: className, query: query, options: options, scope: AccessScope(classes: scope))
    }

    static func compile(_ request: FindRequest, _ dialect: any SQLDialect, count: Bool = false) throws -> SQLFragment {
        try QueryCompiler.compile(request, dialect: dialect, catalog: catalog, count: count)
    }

    // MARK: Conditions, per dialect

    /// One `where` for a signed-in user with roles; the statement is
    /// `SELECT … WHERE <ACL> AND <condition> LIMIT <100>`.
    struct ConditionCase: CustomTestStringConvertible, Sendable {
        let name: String
        let whereJSON: String
        let sqlite: String
        let sqliteBindings: [SQLValue]
        let postgres: String
        let postgresBindings: [SQLValue]
        var testDescription: String { name }
    }

    static let conditionCases: [ConditionCase] = [
        .init(
            name: "string equality", whereJSON: #"{"title":"hello"}"#,
            sqlite: "json_extract(data, '$.title') = ?", sqliteBindings: [.text("hello")],
            postgres: "(data #>> '{title}') = $5", postgresBindings: [.text("hello")]),
        .init(
            name: "number equality", whereJSON: #"{"score":42}"#,
            sqlite: "json_extract(data, '$.score') = ?", sqliteBindings: [.real(42)],
            postgres: "NULLIF(data #> '{score}', 'null'::jsonb) = $5::jsonb", postgresBindings: [.text("42")]),
        .init(
            name: "number comparison", whereJSON: #"{"score":{"$gte":1.5,"$lt":10}}"#,
            sqlite: "(json_extract(data, '$.score') >= ? AND json_extract(data, '$.score') < ?)", sqliteBindings: [.real(1.5), .real(10)],
            postgres: "(NULLIF(data #> '{score}', 'null'::jsonb) >= $5::jsonb AND NULLIF(data #> '{score}', 'null'::jsonb) < $6::jsonb)",
            postgresBindings: [.text("1.5"), .text("10")]),
        .init(
            name: "bool equality", whereJSON: #"{"done":true}"#,
            sqlite: "json_extract(data, '$.done') = ?", sqliteBindings: [.bool(true)],
            postgres: "NULLIF(data #> '{done}', 'null'::jsonb) = $5::jsonb", postgresBindings: [.text("true")]),
        .init(
            name: "pointer equality", whereJSON: #"{"owner":{"__type":"Pointer","className":"_User","objectId":"u2"}}"#,
            sqlite: "json_extract(data, '$.owner.objectId') = ?", sqliteBindings: [.text("u2")],
            postgres: "(data #>> '{owner,objectId}') = $5", postgresBindings: [.text("u2")]),
        .init(
            name: "pointer to another class never matches", whereJSON: #"{"owner":{"__type":"Pointer","className":"Note","objectId":"u2"}}"#,
            sqlite: "0 = 1", sqliteBindings: [], postgres: "0 = 1", postgresBindings: []),
        .init(
            name: "pointer with an implausible id never matches",
            whereJSON: #"{"owner":{"__type":"Pointer","className":"_User","objectId":"x'; DROP TABLE \"Note\"; --"}}"#,
            sqlite: "0 = 1", sqliteBindings: [], postgres: "0 = 1", postgresBindings: []),
        .init(
            name: "date equality", whereJSON: #"{"due":{"__type":"Date","iso":"2024-01-02T03:04:05.000Z"}}"#,
            sqlite: "json_extract(data, '$.due.iso') = ?", sqliteBindings: [.text("2024-01-02T03:04:05.000Z")],
            postgres: "(data #>> '{due,iso}') = $5", postgresBindings: [.text("2024-01-02T03:04:05.000Z")]),
        .init(
            name: "createdAt is a column", whereJSON: #"{"createdAt":{"$lt":{"__type":"Date","iso":"2024-01-02T03:04:05.000Z"}}}"#,
            sqlite: "createdAt < ?", sqliteBindings: [.text("2024-01-02T03:04:05.000Z")],
            postgres: "createdAt < $5", postgresBindings: [.text("2024-01-02T03:04:05.000Z")]),
        .init(
            name: "objectId is a column", whereJSON: #"{"objectId":"abc"}"#,
            sqlite: "objectId = ?", sqliteBindings: [.text("abc")], postgres: "objectId = $5", postgresBindings: [.text("abc")]),
        .init(
            name: "a number never equals a string field", whereJSON: #"{"title":7}"#,
            sqlite: "0 = 1", sqliteBindings: [], postgres: "0 = 1", postgresBindings: []),
        .init(
            name: "equality with null", whereJSON: #"{"title":null}"#,
            sqlite: "json_extract(data, '$.title') IS NULL", sqliteBindings: [],
            postgres: "(data #>> '{title}') IS NULL", postgresBindings: []),
        .init(
            name: "$ne", whereJSON: #"{"title":{"$ne":"x"}}"#,
            sqlite: "(json_extract(data, '$.title') IS NULL OR json_extract(data, '$.title') <> ?)", sqliteBindings: [.text("x")],
            postgres: "((data #>> '{title}') IS NULL OR (data #>> '{title}') <> $5)", postgresBindings: [.text("x")]),
        .init(
            name: "$in with null", whereJSON: #"{"title":{"$in":["a","b",null]}}"#,
            sqlite: "(json_extract(data, '$.title') IN (?, ?) OR json_extract(data, '$.title') IS NULL)",
            sqliteBindings: [.text("a"), .text("b")],
            postgres: "((data #>> '{title}') IN ($5, $6) OR (data #>> '{title}') IS NULL)", postgresBindings: [.text("a"), .text("b")]),
        .init(
            name: "empty $in", whereJSON: #"{"title":{"$in":[]}}"#, sqlite: "0 = 1", sqliteBindings: [], postgres: "0 = 1", postgresBindings: []),
        .init(
            name: "$nin", whereJSON: #"{"score":{"$nin":[1,2]}}"#,
            sqlite: "(json_extract(data, '$.score') IS NULL OR NOT (json_extract(data, '$.score') IN (?, ?)))",
            sqliteBindings: [.real(1), .real(2)],
            postgres:
                "(NULLIF(data #> '{score}', 'null'::jsonb) IS NULL OR NOT (NULLIF(data #> '{score}', 'null'::jsonb) IN ($5::jsonb, $6::jsonb)))",
            postgresBindings: [.text("1"), .text("2")]),
        .init(
            name: "$exists true", whereJSON: #"{"title":{"$exists":true}}"#,
            sqlite: "json_type(data, '$.title') IS NOT NULL", sqliteBindings: [],
            postgres: "(data #> '{title}') IS NOT NULL", postgresBindings: []),
        .init(
            name: "$exists false", whereJSON: #"{"meta.level":{"$exists":false}}"#,
            sqlite: "json_type(data, '$.meta.level') IS NULL", sqliteBindings: [],
            postgres: "(data #> '{meta,level}') IS NULL", postgresBindings: []),
        .init(
            name: "$regex on a string field", whereJSON: #"{"title":{"$regex":"^a.c","$options":"i"}}"#,
            sqlite: "rt_regex(json_extract(data, '$.title'), ?, ?)", sqliteBindings: [.text("^a.c"), .text("i")],
            postgres: "rt_regex((data #>> '{title}'), $5, $6)", postgresBindings: [.text("(?p)^a.c"), .text("i")]),
        .init(
            name: "$regex on a nested key", whereJSON: #"{"meta.name":{"$regex":"x"}}"#,
            sqlite: "rt_regex(json_extract(data, '$.meta.name'), ?, ?)", sqliteBindings: [.text("x"), .text("")],
            postgres:
                "rt_regex((CASE WHEN jsonb_typeof(NULLIF(data #> '{meta,name}', 'null'::jsonb)) = 'string' THEN NULLIF(data #> '{meta,name}', 'null'::jsonb) #>> '{}' END), $5, $6)",
            postgresBindings: [.text("(?p)x"), .text("")]),
        .init(
            name: "nested key equality", whereJSON: #"{"meta.level":3}"#,
            sqlite: "json_extract(data, '$.meta.level') = ?", sqliteBindings: [.real(3)],
            postgres: "NULLIF(data #> '{meta,level}', 'null'::jsonb) = $5::jsonb", postgresBindings: [.text("3")]),
        .init(
            name: "array contains", whereJSON: #"{"tags":"red"}"#,
            sqlite: "EXISTS (SELECT 1 FROM json_each(data, '$.tags') WHERE value IN (?))", sqliteBindings: [.text("red")],
            postgres:
                "EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof((data #> '{tags}')) = 'array' THEN (data #> '{tags}') END) AS elements(value) WHERE value IN ($5::jsonb))",
            postgresBindings: [.text(#""red""#)]),
        .init(
            name: "two keys are AND, in name order", whereJSON: #"{"title":"a","done":false}"#,
            sqlite: "(json_extract(data, '$.done') = ? AND json_extract(data, '$.title') = ?)", sqliteBindings: [.bool(false), .text("a")],
            postgres: "(NULLIF(data #> '{done}', 'null'::jsonb) = $5::jsonb AND (data #>> '{title}') = $6)",
            postgresBindings: [.text("false"), .text("a")]),
        .init(
            name: "$or", whereJSON: #"{"$or":[{"title":"a"},{"score":{"$gt":3}}]}"#,
            sqlite: "(json_extract(data, '$.title') = ? OR json_extract(data, '$.score') > ?)", sqliteBindings: [.text("a"), .real(3)],
            postgres: "((data #>> '{title}') = $5 OR NULLIF(data #> '{score}', 'null'::jsonb) > $6::jsonb)",
            postgresBindings: [.text("a"), .text("3")]),
        .init(
            name: "$and", whereJSON: #"{"$and":[{"title":"a"},{"title":{"$ne":"b"}}]}"#,
            sqlite: "(json_extract(data, '$.title') = ? AND (json_extract(data, '$.title') IS NULL OR json_extract(data, '$.title') <> ?))",
            sqliteBindings: [.text("a"), .text("b")],
            postgres: "((data #>> '{title}') = $5 AND ((data #>> '{title}') IS NULL OR (data #>> '{title}') <> $6))",
            postgresBindings: [.text("a"), .text("b")]),
        .init(
            name: "$nor", whereJSON: #"{"$nor":[{"title":"a"},{"done":true}]}"#,
            sqlite: "NOT (json_extract(data, '$.title') = ? OR json_extract(data, '$.done') = ?)", sqliteBindings: [.text("a"), .bool(true)],
            postgres: "NOT ((data #>> '{title}') = $5 OR NULLIF(data #> '{done}', 'null'::jsonb) = $6::jsonb)",
            postgresBindings: [.text("a"), .text("true")]),
        .init(
            name: "empty where", whereJSON: "{}", sqlite: "1 = 1", sqliteBindings: [], postgres: "1 = 1", postgresBindings: []),
    ]

    @Test(arguments: conditionCases)
    func conditionSQLite(_ row: ConditionCase) throws {
        let sql = try Self.compile(Self.request(row.whereJSON), SQLiteDialect())
        #expect(sql.sql == Self.sqliteSelect + Self.sqliteACL + " AND " + row.sqlite + " LIMIT ?")
        #expect(sql.bindings == Self.userGroup + row.sqliteBindings + [.integer(100)])
        try Self.checkBound(sql, SQLiteDialect())
    }

    @Test(arguments: conditionCases)
    func conditionPostgres(_ row: ConditionCase) throws {
        let sql = try Self.compile(Self.request(row.whereJSON), PostgresDialect())
        let limit = "$\(5 + row.postgresBindings.count)"
        #expect(sql.sql == Self.pgSelect + Self.pgACL + " AND " + row.postgres + " LIMIT " + limit)
        #expect(sql.bindings == Self.userGroup + row.postgresBindings + [.integer(100)])
        try Self.checkBound(sql, PostgresDialect())
    }

    // MARK: Whole statements

    @Test func orderLimitSkip() throws {
        let request = try Self.request("{}", params: #"{"order":"-score,title,createdAt","limit":10,"skip":20}"#)
        let lite = try Self.compile(request, SQLiteDialect())
        #expect(
            lite.sql == Self.sqliteSelect + Self.sqliteACL
                + " AND 1 = 1 ORDER BY json_extract(data, '$.score') DESC, json_extract(data, '$.title') ASC, createdAt ASC LIMIT ? OFFSET ?")
        #expect(lite.bindings == Self.userGroup + [.integer(10), .integer(20)])
        let pg = try Self.compile(request, PostgresDialect())
        #expect(
            pg.sql == Self.pgSelect + Self.pgACL
                + " AND 1 = 1 ORDER BY NULLIF(data #> '{score}', 'null'::jsonb) DESC NULLS LAST, (data #>> '{title}') ASC NULLS FIRST, createdAt ASC LIMIT $5 OFFSET $6"
        )
        #expect(pg.bindings == Self.userGroup + [.integer(10), .integer(20)])
    }

    @Test func limitIsCappedAndSkipZeroHasNoOffset() throws {
        let request = try Self.request("{}", params: #"{"limit":5000,"skip":0}"#)
        let lite = try Self.compile(request, SQLiteDialect())
        #expect(lite.sql == Self.sqliteSelect + Self.sqliteACL + " AND 1 = 1 LIMIT ?")
        #expect(lite.bindings.last == .integer(1000))
    }

    /// `keys` is applied by the services: the statement reads whole documents either way.
    @Test func keysDoNotChangeTheStatement() throws {
        for dialect in [SQLiteDialect() as any SQLDialect, PostgresDialect()] {
            let plain = try Self.compile(Self.request(#"{"title":"a"}"#), dialect)
            let keyed = try Self.compile(Self.request(#"{"title":"a"}"#, params: #"{"keys":"title,score"}"#), dialect)
            #expect(plain.sql == keyed.sql && plain.bindings == keyed.bindings)
        }
    }

    @Test func count() throws {
        let request = try Self.request(#"{"title":"a"}"#, params: #"{"limit":10,"skip":5,"order":"title"}"#)
        let lite = try Self.compile(request, SQLiteDialect(), count: true)
        #expect(lite.sql == #"SELECT COUNT(*) FROM "Note" WHERE "# + Self.sqliteACL + " AND json_extract(data, '$.title') = ?")
        #expect(lite.bindings == Self.userGroup + [.text("a")])
        let pg = try Self.compile(request, PostgresDialect(), count: true)
        #expect(pg.sql == #"SELECT COUNT(*) FROM "Note" WHERE "# + Self.pgACL + " AND (data #>> '{title}') = $5")
        #expect(pg.bindings == Self.userGroup + [.text("a")])
    }

    @Test func masterKeySkipsTheACL() throws {
        let request = try Self.request(#"{"title":"a"}"#, scope: [Self.note: .master])
        let lite = try Self.compile(request, SQLiteDialect())
        #expect(lite.sql == Self.sqliteSelect + "json_extract(data, '$.title') = ? LIMIT ?")
        #expect(lite.bindings == [.text("a"), .integer(100)])
        let pg = try Self.compile(request, PostgresDialect())
        #expect(pg.sql == Self.pgSelect + "(data #>> '{title}') = $1 LIMIT $2")
        #expect(pg.bindings == [.text("a"), .integer(100)])
    }

    @Test func anonymousACLIsPublicOnly() throws {
        let request = try Self.request("{}", scope: [Self.note: Access(aclGroup: ["*"])])
        let lite = try Self.compile(request, SQLiteDialect())
        #expect(lite.sql == Self.sqliteSelect + "(_rperm IS NULL OR EXISTS (SELECT 1 FROM json_each(_rperm) WHERE value IN (?))) AND 1 = 1 LIMIT ?")
        #expect(lite.bindings == [.text("*"), .integer(100)])
        let pg = try Self.compile(request, PostgresDialect())
        #expect(pg.sql == Self.pgSelect + "(_rperm IS NULL OR _rperm && ARRAY[$1]::text[]) AND 1 = 1 LIMIT $2")
    }

    @Test func classNotInScopeIs101() throws {
        let request = try Self.request("{}", scope: [:])
        #expect(throws: ParseError.objectNotFound) { try Self.compile(request, SQLiteDialect()) }
    }

    @Test func classWithoutTableMatchesNothing() throws {
        let other = try ClassName("Other")
        let request = try Self.request(#"{"title":"a"}"#, className: other, scope: [other: Self.user])
        #expect(try Self.compile(request, SQLiteDialect()).sql == "SELECT NULL, NULL, NULL, NULL, NULL, NULL WHERE 0 = 1")
        #expect(try Self.compile(request, PostgresDialect(), count: true).sql == "SELECT 0")
    }

    @Test func pointerPermissionsRestrictToTheCaller() throws {
        var access = Self.user
        access.pointerRestriction = [try FieldName("owner"), try FieldName("editors")]
        let request = try Self.request(#"{"done":true}"#, scope: [Self.note: access])
        let lite = try Self.compile(request, SQLiteDialect())
        #expect(
            lite.sql == Self.sqliteSelect + Self.sqliteACL
                + " AND (json_extract(data, '$.owner.objectId') = ? OR EXISTS (SELECT 1 FROM json_each(data, '$.editors') WHERE json_extract(CASE WHEN type = 'object' THEN value END, '$.objectId') = ?)) AND json_extract(data, '$.done') = ? LIMIT ?"
        )
        #expect(lite.bindings == Self.userGroup + [.text("u1"), .text("u1"), .bool(true), .integer(100)])
        let pg = try Self.compile(request, PostgresDialect())
        #expect(
            pg.sql == Self.pgSelect + Self.pgACL
                + " AND ((data #>> '{owner,objectId}') = $5 OR EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof((data #> '{editors}')) = 'array' THEN (data #> '{editors}') END) AS elements(value) WHERE (value #>> '{objectId}') = $6)) AND NULLIF(data #> '{done}', 'null'::jsonb) = $7::jsonb LIMIT $8"
        )
        #expect(pg.bindings == Self.userGroup + [.text("u1"), .text("u1"), .text("true"), .integer(100)])
    }

    @Test func pointerPermissionsWithoutAUserMatchNothing() throws {
        let access = Access(aclGroup: ["*"], pointerRestriction: [try FieldName("owner")])
        let request = try Self.request(#"{"title":"a"}"#, scope: [Self.note: access])
        let lite = try Self.compile(request, SQLiteDialect())
        #expect(
            lite.sql == Self.sqliteSelect
                + "(_rperm IS NULL OR EXISTS (SELECT 1 FROM json_each(_rperm) WHERE value IN (?))) AND 0 = 1 AND json_extract(data, '$.title') = ? LIMIT ?"
        )
        #expect(lite.bindings == [.text("*"), .text("a"), .integer(100)])
    }

    @Test func protectedFieldsAreRemovedInTheStatement() throws {
        let access = Access(
            aclGroup: Self.user.aclGroup, userId: "u1", hiddenFields: ["phone", "email"], hiddenUnlessUserField: ["owner": ["phone"]])
        let request = try Self.request("{}", scope: [Self.note: access])
        let lite = try Self.compile(request, SQLiteDialect())
        #expect(
            lite.sql
                == "SELECT objectId, createdAt, updatedAt, _rperm, _wperm, CASE WHEN json_extract(data, '$.owner.objectId') = ? THEN json_remove(data, '$.phone') ELSE json_remove(data, '$.email', '$.phone') END FROM \"Note\" WHERE "
                + Self.sqliteACL + " AND 1 = 1 LIMIT ?")
        #expect(lite.bindings == [.text("u1")] + Self.userGroup + [.integer(100)])
        let pg = try Self.compile(request, PostgresDialect())
        #expect(
            pg.sql
                == "SELECT objectId, createdAt, updatedAt, array_to_json(_rperm)::text, array_to_json(_wperm)::text, (CASE WHEN (data #>> '{owner,objectId}') = $1 THEN (data - '{phone}'::text[]) ELSE (data - '{email,phone}'::text[]) END)::text FROM \"Note\" WHERE (_rperm IS NULL OR _rperm && ARRAY[$2, $3, $4, $5]::text[]) AND 1 = 1 LIMIT $6"
        )
        #expect(pg.bindings == [.text("u1")] + Self.userGroup + [.integer(100)])
    }

    @Test func usersSeeTheirOwnProtectedFields() throws {
        let access = Access(aclGroup: ["*", "u1"], userId: "u1", hiddenFields: ["email"])
        let request = try Self.request("{}", className: .user, scope: [.user: access])
        let lite = try Self.compile(request, SQLiteDialect())
        #expect(
            lite.sql
                == "SELECT objectId, createdAt, updatedAt, _rperm, _wperm, CASE WHEN objectId = ? THEN data ELSE json_remove(data, '$.email') END FROM \"_User\" WHERE (_rperm IS NULL OR EXISTS (SELECT 1 FROM json_each(_rperm) WHERE value IN (?, ?))) AND 1 = 1 LIMIT ?"
        )
        #expect(lite.bindings == [.text("u1"), .text("*"), .text("u1"), .integer(100)])
    }

    @Test func subqueriesCarryTheCallersACL() throws {
        let whereJSON = #"{"owner":{"$inQuery":{"className":"_User","where":{"username":"bob"}}}}"#
        let request = try Self.request(whereJSON, scope: [Self.note: Self.user, .user: Self.user])
        let lite = try Self.compile(request, SQLiteDialect())
        #expect(
            lite.sql == Self.sqliteSelect + Self.sqliteACL
                + " AND json_extract(data, '$.owner.objectId') IN (SELECT s1.objectId FROM \"_User\" AS s1 WHERE (s1._rperm IS NULL OR EXISTS (SELECT 1 FROM json_each(s1._rperm) WHERE value IN (?, ?, ?, ?))) AND json_extract(s1.data, '$.username') = ?) LIMIT ?"
        )
        #expect(lite.bindings == Self.userGroup + Self.userGroup + [.text("bob"), .integer(100)])
        let pg = try Self.compile(request, PostgresDialect())
        #expect(
            pg.sql == Self.pgSelect + Self.pgACL
                + " AND (data #>> '{owner,objectId}') IN (SELECT s1.objectId FROM \"_User\" AS s1 WHERE (s1._rperm IS NULL OR s1._rperm && ARRAY[$5, $6, $7, $8]::text[]) AND (s1.data #>> '{username}') = $9) LIMIT $10"
        )
        // A class the caller may not read gives an empty subquery.
        let hidden = try Self.compile(Self.request(whereJSON), SQLiteDialect())
        #expect(hidden.sql.contains("IN (SELECT NULL WHERE 0 = 1)"))
        #expect(hidden.bindings == Self.userGroup + [.integer(100)])
    }

    @Test func writeAccessConditionCountsEarlierBindings() throws {
        var access = Access(aclGroup: ["*", "u1"], userId: "u1", pointerRestriction: [try FieldName("owner")])
        access = access.requiring(try FieldName("token"), equals: "t'0k")
        let lite = QueryCompiler.accessCondition(
            access, schema: Self.noteSchema, permissionColumn: "_wperm", dialect: SQLiteDialect(), catalog: Self.catalog, bindingOffset: 2)
        #expect(
            lite.sql
                == "(_wperm IS NULL OR EXISTS (SELECT 1 FROM json_each(_wperm) WHERE value IN (?, ?))) AND (json_extract(data, '$.owner.objectId') = ?) AND json_extract(data, '$.token') = ?"
        )
        #expect(lite.bindings == [.text("*"), .text("u1"), .text("u1"), .text("t'0k")])
        let pg = QueryCompiler.accessCondition(
            access, schema: Self.noteSchema, permissionColumn: "_wperm", dialect: PostgresDialect(), catalog: Self.catalog, bindingOffset: 2)
        #expect(
            pg.sql
                == "(_wperm IS NULL OR _wperm && ARRAY[$3, $4]::text[]) AND ((data #>> '{owner,objectId}') = $5) AND (data #>> '{token}') = $6")
        #expect(pg.bindings == lite.bindings)
        let master = QueryCompiler.accessCondition(
            .master, schema: Self.noteSchema, permissionColumn: "_wperm", dialect: PostgresDialect(), catalog: Self.catalog, bindingOffset: 0)
        #expect(master.sql == "1 = 1" && master.bindings.isEmpty)
    }

    // MARK: Hostile input

    static let hostileValues: [String] = [
        "'; DROP TABLE \"Note\"; --", "x' OR '1'='1", "\\'", "?", "$1", "$1::jsonb", "\"); DELETE FROM \"_User\"; --",
        "'{title}'", "' || (SELECT 1) || '", "ünïcødé 🙂", String(repeating: "A'", count: 50_000),
    ]

    /// Text with NUL is refused (107) before any SQL is built, by both dialects and in every
    /// place a value goes, so no database ever compares it cut short (`ExactText`).
    @Test(arguments: ["a\u{0000}b", "\u{0000}", "admin\u{0000}x", String(repeating: "\u{0000}", count: 1000)])
    func nulIsRefusedBeforeSQL(_ value: String) throws {
        let json = JSONWriter.string(.string(value))
        let shapes = [
            #"{"title":\#(json)}"#, #"{"meta.k":\#(json)}"#, #"{"title":{"$in":["ok",\#(json)]}}"#, #"{"meta.k":{"$ne":\#(json)}}"#,
            #"{"tags":\#(json)}"#, #"{"objectId":\#(json)}"#, #"{"title":{"$regex":\#(json)}}"#, #"{"title":{"$lt":\#(json)}}"#,
            #"{"meta":{"k":\#(json)}}"#, #"{"$nor":[{"title":\#(json)}]}"#,
        ]
        for dialect in [SQLiteDialect() as any SQLDialect, PostgresDialect()] {
            for shape in shapes {
                #expect(throws: ExactText.refused, "\(shape)") { try Self.compile(Self.request(shape), dialect) }
            }
        }
    }

    /// The SQL text is the same whatever the value; the value is bound exactly.
    @Test(arguments: hostileValues)
    func hostileValuesAreBound(_ value: String) throws {
        let json = JSONWriter.string(.string(value))
        let shapes: [(String, (String) -> String)] = [
            ("string field", { #"{"title":\#($0)}"# }), ("nested key", { #"{"meta.k":\#($0)}"# }),
            ("$in", { #"{"title":{"$in":[\#($0)]}}"# }), ("$ne", { #"{"meta.k":{"$ne":\#($0)}}"# }),
            ("array", { #"{"tags":\#($0)}"# }), ("objectId", { #"{"objectId":\#($0)}"# }),
        ]
        for dialect in [SQLiteDialect() as any SQLDialect, PostgresDialect()] {
            for (shape, make) in shapes {
                let benign = try Self.compile(Self.request(make(#""benign""#)), dialect)
                let hostile = try Self.compile(Self.request(make(json)), dialect)
                #expect(hostile.sql == benign.sql, "\(shape)")
                #expect(hostile.bindings.count == benign.bindings.count, "\(shape)")
                let bound = hostile.bindings.contains { $0 == .text(value) || $0 == .text(json) }
                #expect(bound, "\(shape): the value is bound")
                try Self.checkBound(hostile, dialect)
            }
        }
    }

    @Test(arguments: hostileValues)
    func hostileRoleNamesAndUserIdsAreBound(_ value: String) throws {
        let access = Access(aclGroup: ["*", value, "role:" + value], userId: value, pointerRestriction: [try FieldName("owner")])
        let benign = Access(aclGroup: ["*", "u", "role:r"], userId: "u", pointerRestriction: [try FieldName("owner")])
        for dialect in [SQLiteDialect() as any SQLDialect, PostgresDialect()] {
            let hostile = try Self.compile(Self.request("{}", scope: [Self.note: access]), dialect)
            #expect(try hostile.sql == Self.compile(Self.request("{}", scope: [Self.note: benign]), dialect).sql)
            #expect(hostile.bindings.filter { $0 == .text(value) }.count == 2)
            #expect(hostile.bindings.contains(.text("role:" + value)))
            try Self.checkBound(hostile, dialect)
        }
    }

    @Test func hostileRegexIsBound() throws {
        let pattern = #"'; DROP TABLE \"Note\"; --"#
        for dialect in [SQLiteDialect() as any SQLDialect, PostgresDialect()] {
            let sql = try Self.compile(Self.request(#"{"title":{"$regex":"\#(pattern)"}}"#), dialect)
            #expect(!sql.sql.contains("DROP"))
            try Self.checkBound(sql, dialect)
        }
    }

    /// Identifiers that are not validated names are refused before any SQL is written.
    static let hostileWheres: [(String, Int)] = [
        (#"{"ti'tle":"a"}"#, 105), (#"{"title\"":"a"}"#, 105), (#"{"a; DROP TABLE Note":1}"#, 105), ("{\"a\\u0000\":1}", 105),
        ("{\"\(String(repeating: "f", count: 129))\":1}", 105), (#"{"meta.a'b":1}"#, 105), (#"{"meta..b":1}"#, 105),
        (#"{"_rperm":{"$in":["*"]}}"#, 105), (#"{"_hashed_password":{"$exists":true}}"#, 105), (#"{"$where":"1"}"#, 102),
        (#"{"title":{"$where":"1"}}"#, 102), (#"{"ACL":{"*":{"read":true}}}"#, 102),
        (#"{"owner":{"$inQuery":{"className":"_User\"; DROP","where":{}}}}"#, 103),
        (#"{"owner":{"$inQuery":{"className":"_Bogus","where":{}}}}"#, 103),
        (#"{"title":{"$select":{"query":{"className":"Note","where":{}},"key":"ti'tle"}}}"#, 105),
        (#"{"$relatedTo":{"object":{"__type":"Pointer","className":"Note","objectId":"a"},"key":"x'y"}}"#, 105),
        (#"{"$relatedTo":{"object":{"__type":"Pointer","className":"Note","objectId":"a'b"},"key":"k"}}"#, 106),
        (#"{"title":{"$regex":"a","$options":"'"}}"#, 102),
    ]

    @Test(arguments: hostileWheres)
    func hostileIdentifiersAreRefused(_ whereJSON: String, _ code: Int) throws {
        let json = try JSONParser.parse(whereJSON)
        #expect { try QueryNode.parse(where: json) } throws: { ($0 as? ParseError)?.code.rawValue == code }
    }

    static let hostileParams: [String] = [
        #"{"order":"ti'tle"}"#, #"{"order":"-\"title\""}"#, #"{"order":"title; DROP TABLE Note"}"#, #"{"keys":"a'b"}"#,
        "{\"order\":\"a\\u0000\"}", #"{"order":"meta.a-b"}"#,
    ]

    @Test(arguments: hostileParams)
    func hostileOrderAndKeysAre105(_ params: String) throws {
        let json = try JSONParser.parse(params).objectValue ?? [:]
        #expect { try FindOptions(params: json, defaultLimit: 100, maxLimit: 1000, limits: QueryLimits()) } throws: {
            ($0 as? ParseError)?.code == .invalidKeyName
        }
    }

    @Test func hostileClassNamesAre103() {
        for name in ["Note\"; DROP TABLE x; --", "No'te", "_Bogus", "", "a\u{0000}", String(repeating: "C", count: 129), "1Note"] {
            #expect(throws: ParseError.self) { try ClassName(name) }
            #expect((try? ClassName(name)) == nil)
        }
        #expect { try ClassName("No'te") } throws: { ($0 as? ParseError)?.code == .invalidClassName }
    }

    @Test func longValuesDoNotGrowTheStatement() throws {
        let long = String(repeating: "x", count: 1_000_000)
        for dialect in [SQLiteDialect() as any SQLDialect, PostgresDialect()] {
            let sql = try Self.compile(Self.request(JSONWriter.string(["title": .string(long)])), dialect)
            #expect(sql.sql.utf8.count < 500)
            #expect(sql.bindings.contains(.text(long)))
        }
    }

    // MARK: Invariants

    /// Checks that `fragment` has one placeholder per binding (PostgreSQL: `$1…$n`, each once),
    /// that every quoted literal is one of the dialect's own path or type literals, and that
    /// every quoted identifier is a validated name.
    static func checkBound(_ fragment: SQLFragment, _ dialect: any SQLDialect) throws {
        var sql = fragment.sql
        if dialect is PostgresDialect {
            let numbers = sql.matches(of: try Regex(#"\$([0-9]+)"#)).compactMap { Int(sql[$0.range].dropFirst()) }
            #expect(numbers.sorted() == Array(1..<(fragment.bindings.count + 1)))
            for literal in [#"'\{[A-Za-z0-9_,]*\}'"#, "'null'::jsonb", "'string'", "'array'"] {
                sql = sql.replacing(try Regex(literal), with: "")
            }
        } else {
            #expect(sql.filter { $0 == "?" }.count == fragment.bindings.count)
            for literal in [#"'\$(\.[A-Za-z][A-Za-z0-9_]*)+'"#, "'object'"] { sql = sql.replacing(try Regex(literal), with: "") }
        }
        #expect(!sql.contains("'"), "a literal that is not the dialect's own: \(fragment.sql.prefix(300))")
        let identifiers = sql.matches(of: try Regex(#""[^"]*""#)).map { String(sql[$0.range].dropFirst().dropLast()) }
        for identifier in identifiers {
            #expect(ClassName.isValid(identifier) || identifier.hasPrefix("_Join:"), "identifier \(identifier)")
        }
        #expect(!sql.contains("\u{0000}"))
    }
}
