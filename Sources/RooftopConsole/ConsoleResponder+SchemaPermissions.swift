import Foundation
import RooftopCore

/// The class-level permissions editor: a grid of operations × audiences built from and read
/// back into `ClassLevelPermissions` (the server's model), then saved as the API saves it.
///
/// Checkbox names are `<row>:<column>`: rows are the operations plus `readUserFields` and
/// `writeUserFields`; columns are `*`, `auth` (requires authentication), `role:<Name>`, a user's
/// objectId, `pointer:<field>` and `new` (the audience typed in `newEntry`). Protected fields
/// are one line per scope, `scope = field, field`.
extension ConsoleResponder {
    /// One column of the grid.
    struct PermissionColumn {
        let key: String
        let label: String
        let kind: String
    }

    func permissionValues(_ schema: ClassSchema, visit: ConsoleVisit) -> [String: Any] {
        let clp = schema.clp
        let order = PermissionSentences.order
        let entries = Set(order.flatMap { clp.rule($0).entries }).subtracting(["*"])
        let pointerNames = schema.fields.filter { $0.value == .pointer(.user) || $0.value == .array }.map(\.key).sorted()
        var columns = [
            PermissionColumn(key: "*", label: visit.word("schemaPublic"), kind: "public"),
            PermissionColumn(key: "auth", label: visit.word("schemaSignedIn"), kind: "auth"),
        ]
        columns += entries.filter { $0.hasPrefix("role:") }.sorted().map { PermissionColumn(key: $0, label: $0, kind: "role") }
        columns += entries.filter { !$0.hasPrefix("role:") }.sorted().map {
            PermissionColumn(key: $0, label: "\(visit.word("user")) \($0)", kind: "user")
        }
        columns += pointerNames.map { PermissionColumn(key: "pointer:\($0)", label: "→ \($0)", kind: "pointer") }
        columns.append(PermissionColumn(key: "new", label: visit.word("schemaNewAudience"), kind: "new"))

        func checked(_ operation: ClassLevelPermissions.Operation, _ column: PermissionColumn) -> Bool {
            let rule = clp.rule(operation)
            switch column.kind {
            case "public": return rule.entries.contains("*")
            case "auth": return rule.requiresAuthentication
            case "pointer": return rule.pointerFields.map(\.rawValue).contains(String(column.key.dropFirst(8)))
            case "new": return false
            default: return rule.entries.contains(column.key)
            }
        }
        var rows: [[String: Any]] = order.map { operation in
            let cells = columns.map { column -> [String: Any] in
                // Create has no object to point to: the server ignores pointer permissions there.
                let offered = !(operation == .create && column.kind == "pointer")
                return [
                    "name": "\(operation.rawValue):\(column.key)", "offered": offered, "checked": checked(operation, column),
                    "label": "\(operation.rawValue) · \(column.label)",
                ]
            }
            return ["row": operation.rawValue, "cells": cells]
        }
        for (row, fields) in [("readUserFields", clp.readUserFields), ("writeUserFields", clp.writeUserFields)] {
            let cells = columns.map { column -> [String: Any] in
                let field = String(column.key.dropFirst(8))
                return [
                    "name": "\(row):\(column.key)", "offered": column.kind == "pointer", "checked": fields.map(\.rawValue).contains(field),
                    "label": "\(row) · \(column.label)",
                ]
            }
            rows.append(["row": row, "cells": cells])
        }
        let protected = clp.protectedFields.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value.joined(separator: ", "))" }
        return [
            "columns": columns.map { ["label": $0.label, "kind": $0.kind] }, "permissionRows": rows,
            "protectedText": protected.joined(separator: "\n"),
        ]
    }

    /// The grid's form as `ClassLevelPermissions`; nil when a protected-fields line has no `=`.
    /// An unchecked operation is master-only, as an empty operation map is in Parse; entries
    /// are checked again by the API's parser on save.
    static func permissions(_ form: [String: String]) throws(ParseError) -> ClassLevelPermissions? {
        var clp = ClassLevelPermissions()
        for operation in ClassLevelPermissions.Operation.allCases { clp.rules[operation] = .init() }
        let newEntry = (form["newEntry"] ?? "").trimmingCharacters(in: .whitespaces)
        for (name, value) in form.sorted(by: { $0.key < $1.key }) where value == "on" {
            guard let colon = name.firstIndex(of: ":") else { continue }
            let row = String(name[..<colon])
            let column = String(name[name.index(after: colon)...])
            let pointer = column.hasPrefix("pointer:") ? try FieldName(String(column.dropFirst(8))) : nil
            if let operation = ClassLevelPermissions.Operation(rawValue: row) {
                var rule = clp.rule(operation)
                switch column {
                case "auth": rule.requiresAuthentication = true
                case "new": if !newEntry.isEmpty { rule.entries.insert(newEntry) }
                default:
                    if let pointer { rule.pointerFields.append(pointer) } else { rule.entries.insert(column) }
                }
                clp.rules[operation] = rule
            } else if let pointer, row == "readUserFields" {
                clp.readUserFields.append(pointer)
            } else if let pointer, row == "writeUserFields" {
                clp.writeUserFields.append(pointer)
            }
        }
        guard let protected = protectedFields(form["protected"] ?? "") else { return nil }
        clp.protectedFields = protected
        return clp
    }

    /// `scope = field, field` lines (a scope named twice keeps its last line); nil when a line
    /// has no `=`.
    static func protectedFields(_ text: String) -> [String: [String]]? {
        var result: [String: [String]] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            guard let equals = trimmed.firstIndex(of: "=") else { return nil }
            let scope = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            let fields = trimmed[trimmed.index(after: equals)...].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            result[scope] = fields.filter { !$0.isEmpty }
        }
        return result
    }
}
