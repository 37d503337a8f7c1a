import Logging
import PostgresNIO
import RooftopStorage

/// Numbered, append-only migrations of the PostgreSQL database: the same steps, with the same
/// ids, as SQLite's (`SQLiteMigrations`).
///
/// Nodes starting together take turns through an advisory lock, so each step runs once.
enum PostgresMigrations {
    static let steps: [(id: String, sql: [String])] = [
        (
            "0001_schema",
            [
                // One row per class: its physical table and its schema (fields, CLP, indexes) as JSON.
                #"CREATE TABLE "_SCHEMA" ("className" text PRIMARY KEY, "tableName" text NOT NULL UNIQUE, "schema" text NOT NULL)"#,
                // Parse's $regex over PostgreSQL's own engine (the pattern is translated by
                // PostgresDialect.regexPattern); `i` picks the case-insensitive operator. SQLite
                // registers its own rt_regex on each connection instead.
                #"""
                CREATE FUNCTION rt_regex(value text, pattern text, options text) RETURNS boolean
                LANGUAGE sql IMMUTABLE AS $$
                SELECT CASE WHEN strpos(options, 'i') > 0 THEN value ~* pattern ELSE value ~ pattern END $$
                """#,
            ]
        ),
        (
            "0002_schema_version",
            [
                // Bumped by every change to _SCHEMA, so a node learns from one read whether its
                // catalog is current.
                #"CREATE TABLE "_SCHEMA_VERSION" ("version" bigint NOT NULL)"#,
                #"INSERT INTO "_SCHEMA_VERSION" ("version") VALUES (0)"#,
                #"""
                CREATE FUNCTION rt_bump_schema_version() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN UPDATE "_SCHEMA_VERSION" SET "version" = "version" + 1; RETURN NULL; END $$
                """#,
                #"""
                CREATE TRIGGER "_SCHEMA_changed" AFTER INSERT OR UPDATE OR DELETE ON "_SCHEMA"
                FOR EACH STATEMENT EXECUTE FUNCTION rt_bump_schema_version()
                """#,
            ]
        ),
        (
            "0003_rate_limits",
            [
                // One fixed-window counter per rate-limit key (rule, zone and client).
                #"CREATE TABLE "_RATE_LIMIT" ("key" text PRIMARY KEY, "windowEnds" bigint NOT NULL, "count" bigint NOT NULL)"#
            ]
        ),
        (
            "0004_jobs",
            [
                // When each periodic job last ran, so one node runs it per interval.
                #"CREATE TABLE "_JOB" ("name" text PRIMARY KEY, "lastRun" bigint NOT NULL)"#
            ]
        ),
        (
            "0005_files",
            [
                // Uploaded files (`fileStorage: database`): one row per file, visible once
                // `complete`; the bytes in numbered chunks of at most 256 KiB.
                #"""
                CREATE TABLE "_FILE" ("name" text PRIMARY KEY, "contentType" text NOT NULL, "size" bigint NOT NULL,
                "etag" text NOT NULL, "createdAt" bigint NOT NULL, "complete" boolean NOT NULL)
                """#,
                #"""
                CREATE TABLE "_FILE_CHUNK" ("name" text NOT NULL REFERENCES "_FILE" ("name") ON DELETE CASCADE,
                "n" integer NOT NULL, "data" bytea NOT NULL, PRIMARY KEY ("name", "n"))
                """#,
            ]
        ),
        (
            "0006_one_time",
            [
                // Single-use records of the browser sign-in (pending flows, app codes), by digest.
                #"CREATE TABLE "_ONE_TIME" ("key" text PRIMARY KEY, "value" text NOT NULL, "expiresAt" bigint NOT NULL)"#,
                #"CREATE INDEX "_ONE_TIME_expiresAt" ON "_ONE_TIME" ("expiresAt")"#,
            ]
        ),
        (
            "0007_console",
            [
                // The admin console's own records (admins, admin sessions), out of reach of the API.
                #"""
                CREATE TABLE "_CONSOLE" ("kind" text NOT NULL, "key" text NOT NULL, "owner" text NOT NULL, "value" text NOT NULL,
                "expiresAt" bigint NOT NULL, PRIMARY KEY ("kind", "key"))
                """#,
                #"CREATE INDEX "_CONSOLE_owner" ON "_CONSOLE" ("kind", "owner")"#,
                #"CREATE INDEX "_CONSOLE_expiresAt" ON "_CONSOLE" ("expiresAt")"#,
            ]
        ),
    ]

    /// An arbitrary constant: the advisory lock all nodes take while migrating.
    static let lockKey: Int64 = 0x526F_6F66_746F_7001

    static func migrate(_ client: PostgresClient, logger: Logger) async throws {
        try await client.withConnection { connection in
            try await connection.query("SELECT pg_advisory_lock(\(lockKey))", logger: logger)
            do {
                try await connection.query(
                    #"CREATE TABLE IF NOT EXISTS "_MIGRATIONS" ("id" text PRIMARY KEY, "appliedAt" timestamptz NOT NULL DEFAULT now())"#,
                    logger: logger)
                var applied: Set<String> = []
                for try await id in try await connection.query(#"SELECT "id" FROM "_MIGRATIONS""#, logger: logger).decode(String.self) {
                    applied.insert(id)
                }
                let known = Set(steps.map(\.id))
                if let newer = applied.subtracting(known).sorted().last {
                    throw StorageError.unavailable("the database was migrated by a newer rooftop (\(newer)); upgrade this node")
                }
                for step in steps where !applied.contains(step.id) {
                    try await connection.query("BEGIN", logger: logger)
                    do {
                        for sql in step.sql { try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) }
                        try await connection.query(#"INSERT INTO "_MIGRATIONS" ("id") VALUES (\#(step.id))"#, logger: logger)
                        try await connection.query("COMMIT", logger: logger)
                    } catch {
                        _ = try? await connection.query("ROLLBACK", logger: logger)
                        throw error
                    }
                }
            } catch {
                _ = try? await connection.query("SELECT pg_advisory_unlock(\(lockKey))", logger: logger)
                throw error
            }
            try await connection.query("SELECT pg_advisory_unlock(\(lockKey))", logger: logger)
        }
    }
}
