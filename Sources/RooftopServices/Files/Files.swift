import Foundation
package import RooftopCore
package import RooftopStorage

/// The file use cases: Parse's upload rules, names, types and sizes, over a `FileStore`.
package struct Files: Sendable {
    /// Where files are kept; `nil` when this server stores none (every file route is 130).
    package let store: (any FileStore)?
    package let config: FilesConfiguration
    let clock: any ServerClock
    /// Mints the unguessable prefix of each stored file's name.
    let tokens: any SessionTokenSource
    /// Whether a user has only `authData.anonymous` (for `enableForAnonymousUser`).
    let isAnonymousUser: @Sendable (String) async throws -> Bool
    /// The files a user's own object refers to (for `deleteUserFiles`).
    let userFileNames: @Sendable (String) async throws -> Set<String>
    /// Every file some object refers to (for `deleteUserFiles`).
    let referencedNames: @Sendable () async throws -> Set<String>
    /// With `fileAccess: signed`, how URLs are signed and checked; `nil`: files are public.
    package let signing: FileURLSigning?

    /// The use cases over `store` with `config`.
    package init(
        store: (any FileStore)?, config: FilesConfiguration, clock: any ServerClock, tokens: any SessionTokenSource,
        isAnonymousUser: @escaping @Sendable (String) async throws -> Bool = { _ in false },
        userFileNames: @escaping @Sendable (String) async throws -> Set<String> = { _ in [] },
        referencedNames: @escaping @Sendable () async throws -> Set<String> = { [] }, signing: FileURLSigning? = nil
    ) {
        self.signing = signing
        self.store = store
        self.config = config
        self.clock = clock
        self.tokens = tokens
        self.isAnonymousUser = isAnonymousUser
        self.userFileNames = userFileNames
        self.referencedNames = referencedNames
    }

    /// With `deleteUserFiles`: the files `userId`'s object refers to, read before it is deleted.
    package func filesOfUser(_ userId: String) async throws -> Set<String> {
        guard config.deleteUserFiles, store != nil else { return [] }
        return try await userFileNames(userId)
    }

    /// After a user was deleted: deletes those of `names` no object refers to any more; how many.
    package func deleteUnreferenced(_ names: Set<String>) async throws -> Int {
        guard !names.isEmpty, let store else { return 0 }
        var deleted = 0
        for name in names.subtracting(try await referencedNames()).sorted() where try await store.delete(name) { deleted += 1 }
        return deleted
    }

    /// An upload admitted before its body is read.
    package struct Upload: Sendable {
        /// The generated name it is stored under: 32 random characters, `_`, the original.
        package let storedName: String
        /// The declared `Content-Type`, normalized.
        package let declaredType: String?
    }

    /// Everything checked before a byte of the body is read: who may upload, the name, its
    /// extension and type, and the declared length.
    package func admit(filename: String, contentType: String?, declaredLength: Int?, principal: Principal) async throws -> Upload {
        _ = try available()
        try await checkAccess(principal)
        try Self.checkName(filename)
        let declared = FileTypes.normalized(contentType)
        if !principal.isMaster { try checkExtension(filename, declared) }
        if let declaredLength, declaredLength > config.maxUploadSize { throw FileTooLargeError(limit: config.maxUploadSize) }
        var name = filename
        if FileTypes.fileExtension(name) == nil, let type = declared, let ext = FileTypes.extensionOf(type: type),
            StoredFileName.isValid(name + "." + ext)
        {
            name += "." + ext
        }
        return Upload(storedName: tokens.newFilePrefix() + "_" + name, declaredType: declared)
    }

    /// Stores an admitted upload's body; refuses an empty one, and stops at the size limit.
    package func save(_ upload: Upload, body: ByteChunks) async throws -> StoredFileInfo {
        let store = try available()
        let head = try await body.read(atLeast: 512)
        guard !head.isEmpty else { throw ParseError(.fileSaveError, "Invalid file upload.") }
        let type = FileTypes.storedType(declared: upload.declaredType, name: upload.storedName, head: head)
        do {
            return try await store.write(
                upload.storedName, contentType: type, createdAt: clock.now(), maxSize: Int64(config.maxUploadSize), from: body.prefixed(by: head))
        } catch FileStoreError.tooLarge {
            throw FileTooLargeError(limit: config.maxUploadSize)
        } catch FileStoreError.invalidName {
            throw Self.invalidCharacters
        } catch FileStoreError.exists {
            throw ParseError(.fileSaveError, "Could not store file: \(upload.storedName).")
        }
    }

    /// What is stored as `name`; `nil` when nothing is (or the name could not be stored).
    package func info(_ name: String) async throws -> StoredFileInfo? {
        try await available().info(name)
    }

    /// Hands `range` of `name` to `consume`; `false` when the file is gone.
    package func read(_ name: String, range: ClosedRange<Int64>?, into consume: ([UInt8]) async throws -> Void) async throws -> Bool {
        try await available().read(name, range: range, into: consume)
    }

    /// Deletes `name`: 153 when there is no such file (a replayed delete too), as in Parse.
    package func delete(_ name: String) async throws {
        guard try await available().delete(name) else { throw ParseError(.fileDeleteError, "Could not delete file.") }
    }

    private func available() throws -> any FileStore {
        guard let store else { throw ParseError(.fileSaveError, "File storage is not configured on this server.") }
        return store
    }

    /// Parse's `fileUpload` switches; the master key may always upload.
    private func checkAccess(_ principal: Principal) async throws {
        if principal.isMaster { return }
        guard let userId = principal.userId else {
            if !config.enableForPublic { throw ParseError(.fileSaveError, "File upload by public is disabled.") }
            return
        }
        if config.enableForAnonymousUser == config.enableForAuthenticatedUser {
            if !config.enableForAuthenticatedUser { throw ParseError(.fileSaveError, "File upload by authenticated user is disabled.") }
            return
        }
        if try await isAnonymousUser(userId) {
            if !config.enableForAnonymousUser { throw ParseError(.fileSaveError, "File upload by anonymous user is disabled.") }
        } else if !config.enableForAuthenticatedUser {
            throw ParseError(.fileSaveError, "File upload by authenticated user is disabled.")
        }
    }

    /// Parse's rule for the name a client gives: 1 to 128 characters, letters, digits and
    /// `@ . ~ _ -` and space, not starting with a dot, space or `-`; and ours: not ending with a
    /// dot or a space, which Windows drops when it saves a file (`x.html.` passes the extension
    /// rule as `html.`'s empty extension, and a person who downloads it gets `x.html`).
    package static func checkName(_ name: String) throws {
        if name.isEmpty { throw ParseError(.invalidFileName, "Filename not provided.") }
        if name.utf8.count > 128 { throw ParseError(.invalidFileName, "Filename too long.") }
        guard StoredFileName.isValid(name) else { throw invalidCharacters }
        if let last = name.utf8.last, last == UInt8(ascii: ".") || last == UInt8(ascii: " ") {
            throw ParseError(.invalidFileName, "Filename may not end with a dot or a space.")
        }
    }

    static let invalidCharacters = ParseError(.invalidFileName, "Filename contains invalid characters.")

    /// `fileExtensions` against the name's extension and against the declared type's, so a
    /// page uploaded as `avatar.png` with `Content-Type: text/html` is refused too.
    private func checkExtension(_ name: String, _ declared: String?) throws {
        var candidates: [String] = []
        if let ext = FileTypes.fileExtension(name) { candidates.append(ext) }
        if let declared, let ext = FileTypes.extensionOf(type: declared) { candidates.append(ext) }
        for candidate in candidates where !Self.matches(candidate, config.fileExtensions) {
            throw ParseError(.fileSaveError, "File upload of extension \(candidate) is disabled.")
        }
    }

    /// Whether `ext` matches one of `patterns` (Parse: `*`, or a regular expression found in it).
    package static func matches(_ ext: String, _ patterns: [String]) -> Bool {
        patterns.contains { pattern in
            if pattern == "*" { return true }
            guard let regex = try? Regex(pattern) else { return false }
            return (try? regex.firstMatch(in: ext)) != nil
        }
    }
}

/// An upload over `maxUploadSize`: 413 with Parse's code and message.
package struct FileTooLargeError: Error, Equatable {
    /// The limit in bytes.
    package let limit: Int
    /// Parse's message.
    package var message: String { "File size exceeds maximum allowed: \(limit) bytes." }
}
