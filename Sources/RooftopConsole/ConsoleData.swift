package import Hummingbird
package import RooftopServices

/// The data use cases behind the console's data, roles and schema pages: the same `Objects` and
/// `Schemas` the REST API calls, so the console refuses what the API refuses, with the same
/// messages. The console calls them as the master (its admins are signed in on their own).
package struct ConsoleData: Sendable {
    /// Objects: find, get, create, update, delete.
    package var objects: Objects
    /// Class schemas: fields, indexes and class-level permissions.
    package var schemas: Schemas
    /// The URL the API serves a stored file at (signed when files are), never the `url` a client
    /// stored in the object; nil leaves files without a link.
    package var fileURL: (@Sendable (_ name: String, _ request: Request) -> String)?

    /// Creates the bundle.
    package init(objects: Objects, schemas: Schemas, fileURL: (@Sendable (_ name: String, _ request: Request) -> String)? = nil) {
        self.objects = objects
        self.schemas = schemas
        self.fileURL = fileURL
    }
}
