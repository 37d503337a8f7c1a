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
        return migrator
    }
}
