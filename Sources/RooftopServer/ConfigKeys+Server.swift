import RooftopCore
import RooftopHTTP
import RooftopServices

extension ServerConfiguration {
    /// Every configuration key, in the reference's order. Applying, the environment's names,
    /// `config print` and docs/configuration.md all come from here.
    package static let definitions: [ConfigKey] = serverKeys + accessKeys + fileKeys + accountKeys + [passkeyKey] + mailKeys

    /// Where the server listens and keeps its data.
    static let serverKeys: [ConfigKey] = [
        .string("host", \.host, "address to listen on", flag: "--host"),
        .int("port", \.port, "port", valid: { (1...65535).contains($0) || $0 == 0 }, problem: "must be between 1 and 65535", flag: "--port"),
        .string("dataDir", \.dataDir, "data directory", flag: "--data-dir"),
        ConfigKey(
            "databaseURI", .string,
            "PostgreSQL instead: `postgres://user:password@host:5432/db?sslmode=require`; several nodes may share it — see "
                + "[deployment.md](deployment.md). `sslmode`: `disable`, `prefer` (default), `require`, `verify-full`. `config print` "
                + "hides only its password",
            aliases: ["databaseURL"], redaction: .urlPassword, flag: "--database-url", defaultNote: "unset: SQLite in `dataDir`",
            apply: { configuration, value in
                let uri = try value.string()
                try value.require(
                    uri.hasPrefix("postgres://") || uri.hasPrefix("postgresql://"),
                    "must be a postgres:// URL (leave it out for the embedded SQLite)")
                configuration.databaseURI = uri
            }, show: { $0.databaseURI.map(JSON.string) ?? .null }),
        .int(
            "databasePoolSize", \.databasePoolSize, "most PostgreSQL connections one node opens (plus one for cache invalidations)",
            valid: { $0 > 0 }, problem: "must be positive"),
        .optionalString(
            "appId", \.appId, "application id; stored in `<dataDir>/keys.json` (0600) when generated", aliases: ["applicationId"],
            defaultNote: "generated on first start"),
        .optionalString(
            "masterKey", \.masterKey, "master key; stored in `<dataDir>/keys.json` (0600) when generated", secret: true,
            defaultNote: "generated on first start"),
        .optionalString(
            "clientKey", \.httpSettings.clientKey, "client key; once any client key is set, non-master requests must carry a matching one",
            secret: true),
        .optionalString("restAPIKey", \.httpSettings.restAPIKey, "REST API key (a client key)", secret: true),
        .optionalString("javascriptKey", \.httpSettings.javascriptKey, "JavaScript key (a client key)", secret: true),
        .optionalString("dotNetKey", \.httpSettings.dotNetKey, ".NET key (a client key)", secret: true),
        .addressList(
            "masterKeyIps", \.httpSettings.masterKeyIps,
            "addresses or CIDR blocks (`10.0.0.0/8`, `fd00::/8`) the master key is accepted from; a correct master key from elsewhere "
                + "is 403. Behind a proxy listed in `trustProxy` the address checked is the client it names, as for rate limits and "
                + "the audit log; `0.0.0.0/0` accepts it from anywhere"),
        .string(
            "mountPath", \.httpSettings.mountPath, "where the API is mounted",
            valid: { $0.hasPrefix("/") && (!$0.hasSuffix("/") || $0 == "/") }, problem: "must start with / and not end with /"),
        .optionalString(
            "serverURL", \.serverURL,
            "public URL of the API; its path is accepted in `/batch` paths; the base of a create's `Location` "
                + "when `publicServerURL` is unset (with neither, the request's `Host`)", aliases: ["url"]),
        .optionalString(
            "publicServerURL", \.publicServerURL,
            "the URL clients and emailed links use; its path is accepted in `/batch` paths; the base of a create's `Location`"),
        .string(
            "profile", \.profile, "`development` allows client class creation; `production` flips to Parse 7's strict defaults",
            valid: { ["development", "production"].contains($0) }, problem: "must be development or production"),
        .int(
            "maxBodySize", \.httpSettings.maxBodySize,
            "largest JSON body in bytes; larger is 413, before any of it is read when `Content-Length` declares it"),
        .seconds(
            "idleTimeout", \.httpSettings.idleTimeout,
            "seconds a connection may make no progress before it is closed: no request, a request head still incomplete, or a body "
                + "that stopped arriving (slow-client protection); `0` never closes one. Rooftop's own option",
            defaultNote: "`60`"),
        .seconds(
            "headerTimeout", \.httpSettings.headerTimeout,
            "seconds a request head may take from its first byte to its last before the connection is closed (slow-header "
                + "protection); the wait between requests is `idleTimeout`'s; `0` no limit. Rooftop's own option",
            defaultNote: "`20`"),
        .seconds(
            "bodyTimeout", \.httpSettings.bodyTimeout,
            "seconds a request body may take from the end of the head to its last byte before the connection is closed "
                + "(slow-body protection: a body that keeps trickling in never looks idle); raise it with `maxUploadSize` for "
                + "large uploads over slow links; `0` no limit. Rooftop's own option",
            defaultNote: "`300`"),
        .string("allowOrigin", \.httpSettings.allowOrigin, "`Access-Control-Allow-Origin`"),
        .addressList(
            "trustProxy", \.httpSettings.trustedProxies,
            "addresses or CIDR blocks of your reverse proxies: only from them is `X-Forwarded-For` believed (the client is the "
                + "right-most address in it that is not a proxy; a hop that is not an address leaves the client unknown)"),
        ConfigKey(
            "rateLimit", .array,
            "Parse Server's rules: `[{\"requestPath\":\"/classes/*\",\"requestTimeWindow\":60000,\"requestCount\":100,"
                + "\"requestMethods\":[\"POST\"],\"zone\":\"ip\",\"includeMasterKey\":false,\"errorResponseMessage\":\"Too many requests.\"}]`; "
                + "paths exact or ending in `/*`; zones `ip`, `user`, `session`, `account`, `global`; added to the defaults — see "
                + "[security.md](security.md)",
            apply: { configuration, value in configuration.httpSettings.rateLimits = try Self.parseRateLimits(value) },
            show: { $0.rateLimitJSON }),
        .bool(
            "defaultRateLimits", \.defaultRateLimits,
            "the built-in per-IP and per-account limits on login, sign-up, password-reset and verification routes and the hosted pages' "
                + "form posts"),
        .int(
            "gracefulShutdownTimeout", \.gracefulShutdownTimeout,
            "on SIGTERM or SIGINT the server stops accepting connections and lets in-flight requests finish for at most this many "
                + "seconds, then closes the connections still open and shuts down (the account work the requests started, such as a "
                + "reset mail's token write, finishes within the same deadline; queued mail then gets up to 5 more seconds, none once "
                + "this deadline has passed; the database is closed cleanly; exit status 0); `0` waits as long as requests take. "
                + "Rooftop's own option",
            valid: { $0 >= 0 }, problem: "must be 0 (wait) or seconds"),
        .int(
            "eventLoops", \.eventLoops,
            "threads serving HTTP; every request runs on its connection's thread. `0`: one per core but one (at least one), so "
                + "a thread the database writer, password hashing or a proxy on the same machine preempts doesn't stall its "
                + "connections — see [deployment.md](deployment.md). Rooftop's own option",
            valid: { (0...1024).contains($0) }, problem: "must be 0 (automatic) or 1 to 1024 threads"),
        .int(
            "handlerTimeout", \.handlerTimeout,
            "seconds an embedding program's cloud function may run before its request fails with 124 (the handler is cancelled); a "
                + "function's own `timeout` wins. See [server-logic.md](server-logic.md). Rooftop's own option",
            valid: { $0 > 0 }, problem: "must be a positive number of seconds"),
        .optionalString(
            "webhookKey", \.webhookKey,
            "sent as `X-Parse-Webhook-Key` with every webhook call (`/hooks`), so the receiver can tell Rooftop's calls from others",
            secret: true),
        ConfigKey(
            "webhookHosts", .list,
            "the hosts (`hooks.example.com`, or `host:port`) a webhook registered through `/hooks` may call; no other address is ever "
                + "called, and with the list empty no webhook can be registered (143). See [server-logic.md](server-logic.md)",
            apply: { configuration, value in
                let hosts = try value.list()
                try value.require(
                    hosts.allSatisfy { !$0.isEmpty && !$0.contains("/") && !$0.contains("@") && !$0.contains(" ") },
                    "must be host names or host:port, without a scheme or path")
                configuration.webhookHosts = hosts
            }, show: { .array($0.webhookHosts.map(JSON.string)) }),
        .optionalString(
            "outboundCAFile", \.outboundCAFile,
            "a PEM file of CA certificates trusted, besides the system's, by the HTTPS calls this server makes: sign-in providers "
                + "(`auth`: a Keycloak or GitHub Enterprise behind an internal CA), webhooks and S3 (`s3Endpoint`); read at start-up "
                + "(`mail.caFile` is SMTP's). See [security.md](security.md#outbound-calls)"),
        .int(
            "metricsPort", \.metricsPort,
            "a second port serving Prometheus metrics at `/metrics` (requests by route and status, latency, sign-ups, logins, "
                + "failed logins, rate-limit refusals, the mail queue, the database pool); `0` turns them off. Rooftop's own option "
                + "([deployment.md](deployment.md))",
            valid: { (0...65535).contains($0) }, problem: "must be a port (1-65535), or 0 for none"),
        .string(
            "metricsHost", \.metricsHost,
            "address the metrics port listens on; keep it private (loopback, or a network only your Prometheus reaches)"),
        .string(
            "logLevel", \.logLevel,
            "`error`, `warn`, `info`, `verbose`, `debug` or `silly` (Parse Server's names); `verbose` and below add one line per request "
                + "(method, path without query, status, time) — about 15 µs of CPU each, a sixth of a get-by-id (docs/benchmarks.md)",
            valid: { logLevels.contains($0) }, problem: "must be one of \(logLevels)"),
        .string(
            "logFormat", \.logFormat,
            "`text`, or `json`: one JSON object per line on standard error (`time`, `level`, `label`, `message`, `source`, "
                + "`metadata`) for log collectors. Rooftop's own option",
            valid: { ["text", "json"].contains($0) }, problem: "must be text or json"),
        ConfigKey(
            "verbose", .boolean, "`true` is `logLevel: verbose`",
            apply: { configuration, value in if try value.bool() { configuration.logLevel = "verbose" } },
            show: { .bool($0.logLevel == "verbose") }),
    ]

    /// Who may do what to the data, and how much of it a request may ask for.
    static let accessKeys: [ConfigKey] = [
        ConfigKey(
            "allowClientClassCreation", .boolean, "whether clients may create classes by writing",
            defaultNote: "`true` in development, `false` in production",
            apply: { configuration, value in configuration.allowClientClassCreation = try value.bool() },
            show: { .bool($0.services.allowClientClassCreation) }),
        ConfigKey(
            "allowPasswordInQuery", .boolean,
            "whether `GET /login` and `GET /verifyPassword` (Parse's REST form) may carry the password in the URL, where proxy and "
                + "server logs and browser history keep it; when off such a request is 119 and the password must come in the body "
                + "(the SDKs' form). Rooftop's own option",
            defaultNote: "`true` in development, `false` in production",
            apply: { configuration, value in configuration.allowPasswordInQuery = try value.bool() },
            show: { .bool($0.allowPasswordInQuery ?? ($0.profile == "development")) }),
        .bool("allowCustomObjectId", \.serviceSettings.allowCustomObjectId, "whether clients may choose objectIds"),
        .int(
            "objectIdSize", \.serviceSettings.objectIdSize, "length of generated objectIds (6–64)", valid: { (6...64).contains($0) },
            problem: "must be between 6 and 64"),
        .int("defaultLimit", \.serviceSettings.defaultLimit, "`limit` when a query gives none"),
        .int("maxLimit", \.serviceSettings.maxLimit, "cap on `limit`"),
        .int(
            "maxFieldsPerClass", \.serviceSettings.maxFieldsPerClass,
            "most fields a class may have (its default fields included); a write or `/schemas` request that would add more is 255. "
                + "Rooftop's own option", valid: { $0 > 0 }, problem: "must be positive"),
        ConfigKey(
            "defaultACL", .object,
            "ACL of objects created without one: `\"public\"` (Parse), `\"owner\"` (a signed-in creator gets "
                + "`{\"<id>\":{\"read\":true,\"write\":true}}`; without a session the object stays public), or per class: "
                + "`{\"Todo\":\"owner\",\"*\":\"public\"}`",
            defaultNote: "`public`",
            apply: { configuration, value in configuration.serviceSettings.defaultACL = try Self.parseDefaultACL(value) },
            show: { .object($0.serviceSettings.defaultACL.mapValues { .string($0.rawValue) }) }),
        .subTable(
            "requestComplexity",
            "limits on request complexity (Parse Server 9's option, with Rooftop's query limits added); a request over any limit is "
                + "refused with a Parse error (107 for batches, 102 for queries)",
            members: complexityMembers),
        .subTable(
            "console", "the admin console ([console.md](console.md))",
            defaultNote: "on at `/console`; no admin exists until `rooftop admin create`", members: consoleMembers),
    ]
}
