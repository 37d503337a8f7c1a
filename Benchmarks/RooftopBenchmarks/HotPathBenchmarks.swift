#if Benchmarks
    @preconcurrency import Benchmark
    import Foundation
    import NIOPosix
    import RooftopCore
    import RooftopCrypto
    import RooftopSQLite
    import RooftopServices
    import RooftopStorage

    /// The pieces of the shared workload's requests, one at a time (issue 7): document decoding and
    /// encoding, a list answer spliced from stored text against the decode–render–encode way,
    /// access-policy evaluation, a warm session lookup and the hand-off to the bcrypt thread pool.
    func hotPathBenchmarks() {
        let noteText =
            #"{"body":"alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec "#
            + #"romeo sierra tango uniform victor whiskey xray yankee zulu alpha bravo charlie delta echo foxtrot golf hotel india "#
            + #"juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform","owner":{"__type":"Pointer","#
            + #""className":"_User","objectId":"u123456789"},"score":417,"title":"note 7 of user 12"}"#

        Benchmark("Decode a stored note (text → fields)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try DocumentCoding.decode(noteText)) }
        }

        Benchmark("Encode a note for the wire (fields → bytes)") { benchmark in
            let object = StoredObject(
                objectId: "n123456789", createdAt: ParseDate(millisecondsSince1970: 1_700_000_000_000),
                updatedAt: ParseDate(millisecondsSince1970: 1_700_000_000_000), acl: ACL(readers: ["u123456789"], writers: ["u123456789"]),
                fields: try DocumentCoding.decode(noteText))
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(JSONWriter.bytes(.object(object.json))) }
        }

        Benchmark("List 50 own notes to bytes, spliced from stored text (findBody)", configuration: .init(maxIterations: 20_000)) { benchmark in
            try await withNotes { objects, user, params in
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations { blackHole(try await objects.findBody(try ClassName("Note"), params: params, principal: user)) }
                benchmark.stopMeasurement()
            }
        }

        Benchmark("List 50 own notes to bytes, decoded and rendered (find + encode)", configuration: .init(maxIterations: 20_000)) { benchmark in
            try await withNotes { objects, user, params in
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    let found = try await objects.find(try ClassName("Note"), params: params, principal: user)
                    blackHole(JSONWriter.bytes(["results": .array(found.results)]))
                }
                benchmark.stopMeasurement()
            }
        }

        Benchmark("Access policy: CLP check and protected fields for a user with roles") { benchmark in
            let note = try ClassName("Note")
            var clp = ClassLevelPermissions()
            clp.protectedFields = ["*": ["secret"], "role:Staff": []]
            let principal = Principal.user("u123456789", roles: ["Staff", "Readers"])
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try AccessPolicy.check(.get, on: note, clp: clp, principal: principal))
                blackHole(AccessPolicy.protectedFields(clp, principal: principal))
            }
        }

        Benchmark("Session token to principal, warm cache", configuration: .init(maxIterations: 200_000)) { benchmark in
            let (store, dir) = try temporaryStore()
            defer { try? FileManager.default.removeItem(at: dir) }
            let objects = Objects(store: store, config: ServicesConfiguration(), clock: WallClock())
            let accounts = Accounts(
                objects: objects, hasher: BcryptPasswordHasher(cost: 4), tokens: SessionTokens(), config: AccountsConfiguration())
            let signUp = try await SignUp(accounts: accounts, origin: .server).signUp(
                body: ["username": "ann", "password": "correct horse"], installationId: nil, principal: .master)
            let token = signUp.sessionToken ?? ""
            _ = try await accounts.principal(forToken: token)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(try await accounts.principal(forToken: token)) }
            benchmark.stopMeasurement()
            try store.close()
        }

        // What a login pays on top of bcrypt itself: the trip to the thread pool and back.
        Benchmark("bcrypt pool hand-off (an empty job on the pool)", configuration: .init(maxIterations: 200_000)) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try await NIOThreadPool.singleton.runIfActive { 1 }) }
        }

        Benchmark("bcrypt cost 4 hash through the pool", configuration: .init(maxIterations: 5_000)) { benchmark in
            let hasher = BcryptPasswordHasher(cost: 4)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(try await hasher.hash("correct horse battery")) }
        }

        // What a login with a second factor pays for the code, against the password hash it follows
        // (the server hashes at BcryptPasswordHasher's default cost, 10): the steps of
        // SecondFactor.spend, without the state's read and write.
        Benchmark("Second factor: open the sealed secret and match a code (one step of drift)") { benchmark in
            let box = SecretBox(secrets: ["a master key only this benchmark knows"])
            let secret = TOTP.newSecret()
            let sealed = try box.seal(secret)
            let now: Int64 = 1_700_000_000
            let code = TOTP.code(secret: secret, step: TOTP.step(atSeconds: now))
            let codes = TOTPCodes()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                guard let (opened, _) = box.open(sealed) else { throw ParseError.internalError }
                blackHole(codes.matchingStep(secret: opened, code: code, atSeconds: now))
            }
        }

        Benchmark("Second factor: a recovery code against ten stored digests") { benchmark in
            let codes = TOTPCodes()
            let tokens = SessionTokens()
            let recovery = (0..<10).map { _ in codes.newRecoveryCode() }
            let stored = recovery.map { tokens.digest(SecondFactor.normalized($0)) }
            // The last one, as typed: every stored digest is compared before it is found.
            let typed = recovery[9].uppercased()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let digest = tokens.digest(SecondFactor.normalized(typed))
                blackHole(stored.firstIndex(where: { ConstantTime.equals($0.utf8, digest.utf8) }))
            }
        }

        Benchmark(
            "bcrypt at the server's default cost, through the pool", configuration: .init(maxDuration: .seconds(5), maxIterations: 50)
        ) { benchmark in
            let hasher = BcryptPasswordHasher()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(try await hasher.hash("correct horse battery")) }
        }
    }

    /// A fresh SQLite store in a temporary directory.
    func temporaryStore() throws -> (SQLiteStore, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return (try SQLiteStore(path: dir.appendingPathComponent("data.db").path), dir)
    }

    /// 50 owner-only notes of one user among 100 of another, as in the shared workload.
    func withNotes(_ body: (Objects, Principal, [String: JSON]) async throws -> Void) async throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        var config = ServicesConfiguration()
        config.allowClientClassCreation = true
        let objects = Objects(store: store, config: config, clock: FixedClock(millisecondsSince1970: 1_700_000_000_000))
        let note = try ClassName("Note")
        for (user, count) in [("u123456789", 50), ("v123456789", 100)] {
            for k in 0..<count {
                let owner: JSON = ["__type": "Pointer", "className": "_User", "objectId": .string(user)]
                let fields: [String: JSON] = [
                    "owner": owner, "title": .string("note \(k)"), "body": .string(String(repeating: "alpha bravo ", count: 21)),
                    "score": .number(Double(k)), "ACL": [user: ["read": true, "write": true]],
                ]
                _ = try await objects.create(note, body: fields, principal: .user(user))
            }
        }
        let me = Principal.user("u123456789")
        let params: [String: JSON] = ["where": ["owner": ["__type": "Pointer", "className": "_User", "objectId": "u123456789"]], "limit": 100]
        try await body(objects, me, params)
        try store.close()
    }
#endif
