import ArgumentParser
import RooftopPostgres
import RooftopS3
import RooftopStorage

extension Database {
    /// The file store `configuration` asks for (`fileStorage`): `<dataDir>/files`, the
    /// PostgreSQL database itself, or an S3-compatible bucket.
    static func fileStore(_ configuration: ServerConfiguration, store: any DataStore) throws -> any FileStore {
        switch configuration.effectiveFileStorage {
        case "database":
            guard let postgres = store as? PostgresStore else {
                throw ValidationError("fileStorage: database keeps files in PostgreSQL; set databaseURI, or use disk")
            }
            return PostgresFileStore(store: postgres)
        case "s3":
            let s3 = configuration.s3
            for (key, value) in [("s3Endpoint", s3.endpoint), ("s3Bucket", s3.bucket), ("s3AccessKeyId", s3.accessKeyId)] where value.isEmpty {
                throw ValidationError("fileStorage: s3 needs \(key)")
            }
            if s3.secretAccessKey.isEmpty { throw ValidationError("fileStorage: s3 needs s3SecretAccessKey") }
            do {
                return S3FileStore(configuration: s3, client: try S3FileStore.client(caFile: configuration.outboundCAFile))
            } catch {
                throw ValidationError(String(describing: error))
            }
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
