import Foundation
import HTTPTypes
import Hummingbird
package import RooftopCore
import RooftopServices

/// The data pages: every class with a cheap count, and one class's objects as a table (paged by
/// index, sorted, filtered through the API's own query parser).
extension ConsoleResponder {
    static let dataPageSize = 50
    /// Counting stops here on SQLite (and on PostgreSQL before its estimate is used).
    static let countCap = 10_000

    /// The schema of a class named in a URL: only classes of the schema (never `_CONSOLE`, which
    /// is no class), looked up by the validated name.
    func consoleSchema(_ name: String) async throws -> ClassSchema? {
        guard let className = try? ClassName(name) else { return nil }
        return try await data.schemas.all().first { $0.className == className }
    }

    func classesPage(_ visit: inout ConsoleVisit) async throws -> Response {
        let schemas = try await data.schemas.all().sorted { $0.className.rawValue < $1.className.rawValue }
        var rows: [[String: Any]] = []
        for schema in schemas {
            let count: String
            do {
                switch try await data.schemas.estimatedCount(schema.className, cap: Self.countCap) {
                case .exact(let n): count = Self.grouped(n)
                case .atLeast(let n): count = Self.grouped(n) + "+"
                case .about(let n): count = "≈ " + Self.grouped(n)
                }
            } catch {
                count = "—"
            }
            rows.append(["name": schema.className.rawValue, "count": count, "fields": schema.fields.count])
        }
        return visit.page("dataClasses", title: visit.word("data"), values: ["classes": rows], section: "data")
    }

    static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }

    func tablePage(_ visit: inout ConsoleVisit, schema: ClassSchema) async throws -> Response {
        let query = visit.query
        let table = try ConsoleTable(schema: schema, query: query)
        let words = visit.words
        let path = visit.base + "/data/" + schema.className.rawValue
        var values: [String: Any] = [
            "className": schema.className.rawValue, "filters": table.filterRows { words[$0] ?? $0 }, "advanced": table.advancedText,
            "hasAdvanced": !table.advancedText.isEmpty,
            "sortFields": table.sortChoices, "descending": table.descending, "schemaHref": visit.base + "/schema/" + schema.className.rawValue,
            "newHref": path + "/new", "path": path,
        ]
        values["columns"] = table.columns.map { column -> [String: Any] in
            var header: [String: Any] = ["name": column]
            if table.sortable.contains(column) { header["href"] = path + "?" + table.link(sortingBy: column) }
            if column == table.sort {
                header["sorted"] = table.descending ? "descending" : "ascending"; header["arrow"] = table.descending ? "↓" : "↑"
            }
            return header
        }
        values["canChange"] = visit.admin?.role == .owner && Self.creatable(schema.className)
        values["isUser"] = schema.className == .user
        var error: String?
        do {
            let found = try await data.objects.find(schema.className, params: try table.params(), principal: .master)
            let page = found.results.prefix(Self.dataPageSize)
            values["rows"] = page.map { object -> [String: Any] in
                let id = object["objectId"]?.stringValue ?? ""
                return [
                    "id": id, "href": visit.base + "/data/" + schema.className.rawValue + "/" + id,
                    "cells": table.columns.dropFirst().map { ConsoleValues.cell(object[$0], column: $0, schema.fields[$0]) },
                ]
            }
            values["hasRows"] = !page.isEmpty
            if found.results.count > Self.dataPageSize, let last = page.last, let after = table.cursor(after: last) {
                values["next"] = visit.base + "/data/" + schema.className.rawValue + "?" + table.link(after: after)
            }
            if table.cursorGiven { values["first"] = visit.base + "/data/" + schema.className.rawValue + "?" + table.link() }
        } catch let failure as ParseError {
            error = failure.message
            values["hasRows"] = false
        }
        return visit.page(
            "dataTable", title: schema.className.rawValue, values: values, status: error == nil ? .ok : .badRequest, error: error,
            section: "data")
    }

    /// The API's find parameters of the table page at `query` (for the query-plan test).
    package static func tableParams(_ schema: ClassSchema, query: [String: String]) throws -> [String: JSON] {
        try ConsoleTable(schema: schema, query: query).params()
    }

    /// Classes the console writes like any other (`_Session` is shown, never changed here; the
    /// API refuses the audit log and the server-managed classes with its own message).
    static func writable(_ className: ClassName) -> Bool { className != .session }

    /// Classes the console creates objects in: users sign up (their password hashed, their
    /// username and email normalized by the account use cases), never here.
    static func creatable(_ className: ClassName) -> Bool { writable(className) && className != .user }
}
