package import RooftopCore
package import RooftopStorage

/// Which stored files objects refer to: `{"__type":"File","name":…}` values anywhere in any
/// object's fields (nested in arrays and objects too), in every class.
package enum FileReferences {
    static let page = 500

    /// Every file name some object refers to (reads every object of every class, a page at a time).
    package static func referenced(in store: any DataStore) async throws -> Set<String> {
        var names: Set<String> = []
        for schema in try await store.allSchemas() {
            try await store.forEachPage(of: schema.className, size: page) { objects in
                for object in objects { collect(.object(object.fields), into: &names) }
            }
        }
        return names
    }

    /// The files of `files` no object refers to, stored before `cutoff` (a file uploaded a moment
    /// ago may be about to be saved in an object), by name.
    package static func unreferenced(files: any FileStore, store: any DataStore, before cutoff: ParseDate) async throws -> [StoredFileInfo] {
        let referenced = try await referenced(in: store)
        var found: [StoredFileInfo] = []
        for name in try await files.list().sorted() where !referenced.contains(name) {
            if let info = try await files.info(name), info.createdAt < cutoff { found.append(info) }
        }
        return found
    }

    /// Adds the names of the File values in `value` to `names`.
    static func collect(_ value: JSON, into names: inout Set<String>) {
        switch value {
        case .object(let members):
            if members["__type"] == "File", let name = members["name"]?.stringValue {
                names.insert(name)
            } else {
                for member in members.values { collect(member, into: &names) }
            }
        case .array(let items): for item in items { collect(item, into: &names) }
        default: break
        }
    }
}
