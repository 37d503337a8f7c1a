import HTTPTypes
import Hummingbird
import NIOCore
import RooftopCore
import RooftopServices

/// The console's route table: every URL under the console's path, in the order they are
/// matched. To add a page, add its route here and its handler in the area's
/// `ConsoleResponder+Area.swift` (see CONTRIBUTING.md, "Adding a console page").
extension ConsoleResponder {
    static let routes: [ConsoleRoute] = [
        ConsoleRoute(.get, "assets/:name", .anyone) { console, _, path in console.asset(path["name"]) },
        ConsoleRoute(.get, "login", .anyone) { console, visit, _ in try await console.loginPage(&visit) },
        ConsoleRoute(.post, "login", .anyone) { console, visit, _ in try await console.logIn(&visit, ip: visit.ip) },
        ConsoleRoute(.post, "logout", .signedIn) { console, visit, _ in try await console.logOut(&visit) },
        ConsoleRoute(.get, "") { _, visit, _ in redirect(visit.base + "/users") },

        ConsoleRoute(.get, "users") { console, visit, _ in try await console.usersPage(&visit) },
        ConsoleRoute(.get, "users/:id") { console, visit, path in try await console.userPage(&visit, id: path["id"]) },
        ConsoleRoute(.get, "users/:id/view-as") { console, visit, path in try await console.viewAsPage(&visit, id: path["id"]) },
        ConsoleRoute(.post, "users/:id/edit") { console, visit, path in try await console.editUser(&visit, id: path["id"]) },
        ConsoleRoute(.get, "users/:id/remove-second-factor", .owner) { console, visit, path in
            try await console.secondFactorRemovalPage(&visit, id: path["id"])
        },
        ConsoleRoute(.post, "users/:id/:action(verify|reset|unlock|revoke-all|delete|remove-second-factor)") { console, visit, path in
            try await console.userAction(&visit, id: path["id"], action: path["action"])
        },
        ConsoleRoute(.post, "users/:id/sessions/:session/revoke") { console, visit, path in
            try await console.revokeSession(&visit, id: path["id"], session: path["session"])
        },
        ConsoleRoute(.get, "users/:id/passkeys/:passkey/remove", .owner) { console, visit, path in
            try await console.passkeyRemovalPage(&visit, id: path["id"], passkeyId: path["passkey"])
        },
        ConsoleRoute(.post, "users/:id/passkeys/:passkey/remove") { console, visit, path in
            try await console.removePasskey(&visit, id: path["id"], passkeyId: path["passkey"])
        },

        ConsoleRoute(.get, "schema") { console, visit, _ in try await console.schemaListPage(&visit) },
        ConsoleRoute(.post, "schema") { console, visit, _ in try await console.createClass(&visit) },
        ConsoleRoute(.get, "schema/:class") { console, visit, path in try await console.schemaPage(&visit, name: path["class"]) },
        ConsoleRoute(.post, "schema/:class/:action(fields|remove-field|indexes|remove-index|permissions|delete)") { console, visit, path in
            try await console.schemaAction(&visit, name: path["class"], action: path["action"])
        },

        ConsoleRoute(.get, "data") { console, visit, _ in try await console.classesPage(&visit) },
        ConsoleRoute(.get, "data/:class") { console, visit, path in
            try await console.withDataClass(&visit, path["class"]) { console, visit, schema in try await console.tablePage(&visit, schema: schema) }
        },
        ConsoleRoute(.get, "data/:class/new") { console, visit, path in
            try await console.withDataClass(&visit, path["class"], creating: true) { console, visit, schema in
                try await console.objectPage(&visit, schema: schema, id: nil)
            }
        },
        ConsoleRoute(.post, "data/:class/new") { console, visit, path in
            try await console.withDataClass(&visit, path["class"], creating: true) { console, visit, schema in
                try await console.createObject(&visit, schema: schema)
            }
        },
        ConsoleRoute(.get, "data/:class/:id") { console, visit, path in
            try await console.withDataClass(&visit, path["class"]) { console, visit, schema in
                try await console.objectPage(&visit, schema: schema, id: path["id"])
            }
        },
        ConsoleRoute(.post, "data/:class/:id/:action(save|acl|delete)") { console, visit, path in
            try await console.withDataClass(&visit, path["class"]) { console, visit, schema in
                try await console.objectAction(&visit, schema: schema, id: path["id"], action: path["action"])
            }
        },

        ConsoleRoute(.get, "roles") { console, visit, _ in try await console.rolesPage(&visit) },
        ConsoleRoute(.post, "roles") { console, visit, _ in try await console.createRole(&visit) },
        ConsoleRoute(.get, "roles/:id") { console, visit, path in try await console.rolePage(&visit, id: path["id"]) },
        ConsoleRoute(.post, "roles/:id/:action(add-user|remove-user|add-role|remove-role)") { console, visit, path in
            try await console.roleAction(&visit, id: path["id"], action: path["action"])
        },

        ConsoleRoute(.get, "audit") { console, visit, _ in try await console.auditPage(&visit) },
        ConsoleRoute(.get, "status") { console, visit, _ in await console.statusPage(&visit) },
        ConsoleRoute(.get, "export") { console, visit, _ in console.exportPage(&visit) },
        ConsoleRoute(.get, "backup") { console, visit, _ in console.exportPage(&visit) },
        ConsoleRoute(.post, "export") { console, visit, _ in await console.exportDownload(&visit) },
        ConsoleRoute(.post, "backup") { console, visit, _ in await console.backupDownload(&visit) },
        ConsoleRoute(.get, "outbox") { console, visit, _ in console.outboxPage(&visit) },
        ConsoleRoute(.get, "outbox/:name") { console, visit, path in console.outboxMessage(&visit, name: path["name"]) },
    ]

    /// The first route that matches, and its parameters.
    static func route(_ method: HTTPRequest.Method, _ path: [String]) -> (ConsoleRoute, ConsolePathParameters)? {
        for route in routes {
            if let parameters = route.match(method, path) { return (route, parameters) }
        }
        return nil
    }

    /// Runs `body` with the class a data URL names; a class that does not exist is the page's
    /// 404, and `new` of a class whose objects the console does not create is 403.
    func withDataClass(
        _ visit: inout ConsoleVisit, _ name: String, creating: Bool = false,
        _ body: (ConsoleResponder, inout ConsoleVisit, ClassSchema) async throws -> Response
    ) async throws -> Response {
        guard let schema = try await consoleSchema(name) else { return visit.message(.notFound, "dataNoClass", status: .notFound) }
        if creating && !Self.creatable(schema.className) { return visit.message(.forbidden, "dataNoCreate", status: .forbidden) }
        return try await body(self, &visit, schema)
    }

    /// Ends the admin's session and clears its cookie.
    func logOut(_ visit: inout ConsoleVisit) async throws -> Response {
        if let token = visit.cookie(named: "rooftop_console") { try await sessions.close(token) }
        await accounts.audit.record(.adminLogout, userId: nil, detail: visit.admin?.name, origin: visit.origin)
        var response = Self.redirect(visit.base + "/login")
        response.headers.append(HTTPField(name: .setCookie, value: visit.cookie("rooftop_console", "", maxAge: 0)))
        return response
    }

    func asset(_ name: String) -> Response {
        let (type, text): (String, String)
        switch name {
        case "console.css": (type, text) = ("text/css; charset=utf-8", ConsoleAssets.stylesheet)
        case "console.js": (type, text) = ("text/javascript; charset=utf-8", ConsoleAssets.script)
        default: return Response(status: .notFound)
        }
        var headers = HTTPFields()
        headers[.contentType] = type
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
