import GRDB

/// Numbered, append-only migrations of the SQLite database.
enum SQLiteMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("0001_schema") { db in
            // One row per class: its physical table and its schema (fields, CLP, indexes) as JSON.
            try db.execute(
                sql: """
                    CREATE TABLE _SCHEMA (
                        className TEXT PRIMARY KEY NOT NULL,
                        tableName TEXT NOT NULL UNIQUE COLLATE NOCASE,
                        schema TEXT NOT NULL
                    )
                    """)
        }
        migrator.registerMigration("0002_schema_version") { db in
            // Bumped by every change to _SCHEMA, so a write learns from one cached-statement
            // read whether the catalog must be reloaded, instead of reloading it every time.
            try db.execute(
                sql: """
                    CREATE TABLE _SCHEMA_VERSION (version INTEGER NOT NULL);
                    INSERT INTO _SCHEMA_VERSION (version) VALUES (0);
                    CREATE TRIGGER _SCHEMA_inserted AFTER INSERT ON _SCHEMA BEGIN UPDATE _SCHEMA_VERSION SET version = version + 1; END;
                    CREATE TRIGGER _SCHEMA_updated AFTER UPDATE ON _SCHEMA BEGIN UPDATE _SCHEMA_VERSION SET version = version + 1; END;
                    CREATE TRIGGER _SCHEMA_deleted AFTER DELETE ON _SCHEMA BEGIN UPDATE _SCHEMA_VERSION SET version = version + 1; END;
                    """)
        }
        migrator.registerMigration("0003_rate_limits") { db in
            // One fixed-window counter per rate-limit key (rule, zone and client).
            try db.execute(sql: "CREATE TABLE _RATE_LIMIT (key TEXT PRIMARY KEY NOT NULL, windowEnds INTEGER NOT NULL, count INTEGER NOT NULL)")
        }
        migrator.registerMigration("0004_jobs") { db in
            // When each periodic job last ran, so one node runs it per interval.
            try db.execute(sql: "CREATE TABLE _JOB (name TEXT PRIMARY KEY NOT NULL, lastRun INTEGER NOT NULL)")
        }
        migrator.registerMigration("0005_files") { db in
            // The same tables as PostgreSQL's; SQLite servers keep files on disk (`fileStorage`),
            // so these stay empty.
            try db.execute(
                sql: """
                    CREATE TABLE _FILE (name TEXT PRIMARY KEY NOT NULL, contentType TEXT NOT NULL, size INTEGER NOT NULL,
                    etag TEXT NOT NULL, createdAt INTEGER NOT NULL, complete INTEGER NOT NULL);
                    CREATE TABLE _FILE_CHUNK (name TEXT NOT NULL REFERENCES _FILE (name) ON DELETE CASCADE, n INTEGER NOT NULL,
                    data BLOB NOT NULL, PRIMARY KEY (name, n));
                    """)
        }
        migrator.registerMigration("0006_one_time") { db in
            // Single-use records of the browser sign-in (pending flows, app codes), by digest.
            try db.execute(
                sql: """
                    CREATE TABLE _ONE_TIME (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL, expiresAt INTEGER NOT NULL);
                    CREATE INDEX _ONE_TIME_expiresAt ON _ONE_TIME (expiresAt);
                    """)
        }
        migrator.registerMigration("0007_console") { db in
            // The admin console's own records (admins, admin sessions), out of reach of the API.
            try db.execute(
                sql: """
                    CREATE TABLE _CONSOLE (kind TEXT NOT NULL, key TEXT NOT NULL, owner TEXT NOT NULL, value TEXT NOT NULL,
                    expiresAt INTEGER NOT NULL, PRIMARY KEY (kind, key));
                    CREATE INDEX _CONSOLE_owner ON _CONSOLE (kind, owner);
                    CREATE INDEX _CONSOLE_expiresAt ON _CONSOLE (expiresAt);
                    """)
        }
        return migrator
    }
}
