#if Benchmarks
    @preconcurrency import Benchmark
    import Foundation
    import HTTPTypes
    import Hummingbird
    import HummingbirdTesting
    import Logging
    import RooftopCore
    import RooftopCrypto
    import RooftopHTTP
    import RooftopSQLite
    import RooftopServer
    import RooftopServices
    import RooftopStorage

    /// Micro-benchmarks of the hot paths: query compilation with ACLs, and object create/get
    /// through the whole HTTP stack on a real SQLite file. Load figures (req/s, p99) come from wrk;
    /// see docs/benchmarks.md.
    nonisolated(unsafe) let benchmarks: @Sendable () -> Void = {
        Benchmark.defaultConfiguration = .init(
            metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput], warmupIterations: 10,
            maxDuration: .seconds(5), maxIterations: 100_000)
        hotPathBenchmarks()

        Benchmark("Compile find with ACL and pointer permission") { benchmark in
            let className = try ClassName("Note")
            let schema = ClassSchema(className: className, fields: ["owner": .pointer(.user), "score": .number, "title": .string])
            let catalog = QueryCompiler.Catalog(schemas: [className: schema], tables: [className: "Note"])
            let whereJSON = try JSONParser.parse(
                #"{"score":{"$gte":10,"$lt":100},"title":{"$in":["a","b","c"]},"$or":[{"done":true},{"done":{"$exists":false}}]}"#)
            var access = Access(aclGroup: ["*", "u1", "role:Staff", "role:Admins"], userId: "u1")
            access.pointerRestriction = [try FieldName("owner")]
            let scope = AccessScope(classes: [className: access])
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let query = try QueryNode.parse(where: whereJSON)
                let request = FindRequest(className: className, query: query, scope: scope)
                blackHole(try QueryCompiler.compile(request, dialect: SQLiteDialect(), catalog: catalog))
            }
        }

        ownerQueryBenchmark("First page of one user's notes among 1M (owner-only ACL)") { objects, note, params, principal in
            let page = try await objects.find(note, params: params, principal: principal)
            precondition(page.results.count == OwnerQueryFixture.notesPerUser)
            blackHole(page)
        }

        // What `GET /classes/Note` runs: the same query answered as the route's body, spliced from
        // the stored text instead of decoded and rendered.
        ownerQueryBenchmark("First page of one user's notes among 1M, as the route's body") { objects, note, params, principal in
            let body = try await objects.findBody(note, params: params, principal: principal)
            precondition(body.count > OwnerQueryFixture.notesPerUser * 100)
            blackHole(body)
        }

        Benchmark("HTTP create object (SQLite, synchronous=FULL)", configuration: .init(maxIterations: 2_000)) { benchmark in
            try await withServer { client in
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    blackHole(
                        try await client.execute(
                            uri: "/parse/classes/Bench", method: .post, headers: masterHeaders,
                            body: ByteBuffer(string: #"{"score":1,"title":"hello"}"#)
                        ) { $0.status })
                }
            }
        }

        Benchmark("HTTP get object by id (master key)") { benchmark in
            try await withServer { client in
                let id = try await client.execute(
                    uri: "/parse/classes/Bench", method: .post, headers: masterHeaders,
                    body: ByteBuffer(string: #"{"score":1,"title":"hello"}"#)
                ) { response in
                    try JSONParser.parse(Array(response.body.readableBytesView))["objectId"]?.stringValue ?? ""
                }
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    blackHole(try await client.execute(uri: "/parse/classes/Bench/\(id)", method: .get, headers: masterHeaders) { $0.status })
                }
            }
        }
    }

    /// Asks the 1M fixture, as a different user each iteration, for the first page (100) of that
    /// user's notes; `page` answers the query one way.
    func ownerQueryBenchmark(
        _ name: String, page: @escaping @Sendable (Objects, ClassName, [String: JSON], Principal) async throws -> Void
    ) {
        Benchmark(name, configuration: .init(maxIterations: 5_000)) { benchmark in
            let store = try await OwnerQueryFixture.open()
            let objects = Objects(store: store, config: ServicesConfiguration(), clock: FixedClock(millisecondsSince1970: 0))
            let note = try ClassName("Note")
            benchmark.startMeasurement()
            for i in benchmark.scaledIterations {
                let user = OwnerQueryFixture.userId((i * 7919) % OwnerQueryFixture.users)
                let whereJSON: JSON = ["owner": ["__type": "Pointer", "className": "_User", "objectId": .string(user)]]
                try await page(objects, note, ["where": whereJSON, "limit": 100], .user(user))
            }
            benchmark.stopMeasurement()
            try store.close()
        }
    }

    let masterHeaders: HTTPFields = {
        var headers = HTTPFields()
        if let app = HTTPField.Name("X-Parse-Application-Id"), let master = HTTPField.Name("X-Parse-Master-Key") {
            headers[app] = "bench"
            headers[master] = "bench-master"
        }
        return headers
    }()

    /// Runs `body` against a live server on a fresh SQLite file in a temporary directory.
    func withServer(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SQLiteStore(path: dir.appendingPathComponent("data.db").path)
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let dependencies = Dependencies(
            store: store, services: ServicesConfiguration(), http: HTTPConfiguration(appId: "bench", masterKey: "bench-master"),
            passwords: BcryptPasswordHasher(cost: 4), tokens: SessionTokens(), logger: logger)
        let app = buildApplication(dependencies, host: "127.0.0.1", port: 0)
        try await app.test(.live) { client in try await body(client) }
    }
#endif
