import ArgumentParser
import RooftopPostgres
import RooftopStorage

extension Database {
    /// The file store `configuration` asks for (`fileStorage`): `<dataDir>/files`, or the
    /// PostgreSQL database itself.
    static func fileStore(_ configuration: ServerConfiguration, store: any DataStore) throws -> any FileStore {
        switch configuration.effectiveFileStorage {
        case "database":
            guard let postgres = store as? PostgresStore else {
                throw ValidationError("fileStorage: database keeps files in PostgreSQL; set databaseURI, or use disk")
            }
            return PostgresFileStore(store: postgres)
        default:
            do {
                DataDirectory.createPrivately()
                return try DiskFileStore(directory: configuration.dataDir + "/files")
            } catch {
                throw ValidationError("cannot open the files directory in \(configuration.dataDir): \(error)")
            }
        }
    }
}
