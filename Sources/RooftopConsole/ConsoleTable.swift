import Foundation
import RooftopCore

/// One class table's request as the URL states it: the sort, the filter rows, the advanced
/// `where`, and the keyset cursor; turned into the API's own find parameters (so the API's
/// parser judges the filter) and back into links.
struct ConsoleTable {
    let schema: ClassSchema
    var sort: String
    var descending: Bool
    /// Filter rows as typed: field, operator, value.
    var filters: [(field: String, op: String, value: String)]
    var advancedText: String
    /// The last row of the previous page: its sort value and objectId.
    var after: (value: JSON, id: String)?

    /// Filter rows the form shows (the typed ones and one empty).
    static let maxFilters = 5
    /// A raw `where` longer than this is refused before parsing.
    static let maxWhere = 16_384
    /// The builder's operators: query name and word key.
    static let operators = [
        ("eq", "dataOpEquals"), ("ne", "dataOpNotEquals"), ("lt", "dataOpLess"), ("lte", "dataOpLessOrEqual"), ("gt", "dataOpGreater"),
        ("gte", "dataOpGreaterOrEqual"), ("exists", "dataOpExists"), ("missing", "dataOpMissing"), ("starts", "dataOpStartsWith"),
        ("in", "dataOpIn"),
    ]

    init(schema: ClassSchema, query: [String: String]) throws(ParseError) {
        self.schema = schema
        let sortable = ["objectId", "createdAt", "updatedAt"] + schema.fields.filter { $0.value.isOrderable }.keys.sorted()
        sort = query["sort"].flatMap { sortable.contains($0) ? $0 : nil } ?? "objectId"
        descending = query["dir"] == "desc"
        filters = (0..<Self.maxFilters).compactMap { i in
            guard let field = query["f\(i)"], !field.isEmpty, let op = query["o\(i)"] else { return nil }
            return (field, op, query["v\(i)"] ?? "")
        }
        advancedText = query["where"] ?? ""
        if let text = query["after"], let cursor = try? JSONParser.parse(text, maxDepth: 4), let id = cursor["id"]?.stringValue,
            ObjectId.isPlausible(id)
        {
            after = (cursor["v"] ?? .null, id)
        }
    }

    var cursorGiven: Bool { after != nil }

    var sortable: [String] {
        ["objectId", "createdAt", "updatedAt"]
            + schema.fields.filter { $0.value.isOrderable }.keys.sorted().filter { !["objectId", "createdAt", "updatedAt"].contains($0) }
    }

    /// objectId first, the dates, the class's other fields by name, the ACL last.
    var columns: [String] {
        let builtIn = ["objectId", "createdAt", "updatedAt"]
        let others = schema.fields.keys.filter { !builtIn.contains($0) && $0 != "ACL" }.sorted()
        return builtIn + others + (schema.fields["ACL"] != nil ? ["ACL"] : [])
    }

    var filterable: [String] { columns.filter { $0 != "ACL" } }

    var sortChoices: [[String: Any]] { sortable.map { ["name": $0, "selected": $0 == sort] } }

    /// The filter form's rows: the typed ones and one empty, operators labelled by `word`.
    func filterRows(_ word: (String) -> String) -> [[String: Any]] {
        var typed = filters
        if typed.count < Self.maxFilters { typed.append(("", "", "")) }
        return typed.enumerated().map { i, row -> [String: Any] in
            [
                "index": i, "value": row.value, "number": i + 1,
                "fields": filterable.map { ["name": $0, "selected": $0 == row.field] },
                "operators": Self.operators.map { ["name": $0.0, "label": word($0.1), "selected": $0.0 == row.op] },
            ]
        }
    }

    /// The API's find parameters for this page: one row more than shown, to know whether
    /// another page follows.
    func params() throws(ParseError) -> [String: JSON] {
        var parts: [JSON] = []
        for row in filters { parts.append(try condition(row)) }
        if !advancedText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            guard advancedText.utf8.count <= Self.maxWhere else { throw ParseError(.invalidQuery, "where is too large.") }
            parts.append(try JSONParser.parse(advancedText))
        }
        if let after { parts.append(keyset(after.value, after.id)) }
        let order = sort == "objectId" ? (descending ? "-objectId" : "objectId") : (descending ? "-\(sort),-objectId" : "\(sort),objectId")
        var params: [String: JSON] = ["limit": .number(Double(ConsoleResponder.dataPageSize + 1)), "order": .string(order)]
        if !parts.isEmpty { params["where"] = parts.count == 1 ? parts[0] : ["$and": .array(parts)] }
        return params
    }

    /// The rows after the last one shown, in the sort's order (missing values sort first, as
    /// both databases order them): a range on the sort field's index, never an offset.
    func keyset(_ value: JSON, _ id: String) -> JSON {
        let idAfter: JSON = ["objectId": [descending ? "$lt" : "$gt": .string(id)]]
        if sort == "objectId" { return idAfter }
        let field = sort
        let alwaysSet = field == "createdAt" || field == "updatedAt"
        // "Missing" is SQL NULL: an absent field or an explicit JSON null, which both databases
        // sort alike (`{field: null}` compiles to IS NULL, `$ne: null` to IS NOT NULL; `$exists`
        // would count an explicit null as set and page in circles).
        if value.isNull {
            // Past the missing values: the rest of them, then (ascending) every set value.
            let missingAfter: JSON = ["$and": [[field: .null], idAfter]]
            return descending ? missingAfter : ["$or": [missingAfter, [field: ["$ne": .null]]]]
        }
        let bound: JSON = [field: [descending ? "$lte" : "$gte": value]]
        let strictlyPast: JSON = ["$or": [[field: [descending ? "$lt" : "$gt": value]], idAfter]]
        let inRange: JSON = ["$and": [bound, strictlyPast]]
        if descending && !alwaysSet { return ["$or": [inRange, [field: .null]]] }
        return inRange
    }

    /// One filter row as a `where` condition; the value is typed by the field's schema type.
    func condition(_ row: (field: String, op: String, value: String)) throws(ParseError) -> JSON {
        let field = row.field
        switch row.op {
        case "exists": return [field: ["$exists": true]]
        case "missing": return [field: ["$exists": false]]
        case "starts": return [field: ["$regex": .string("^\\Q" + row.value.replacingOccurrences(of: "\\E", with: "\\E\\\\E\\Q") + "\\E")]]
        case "in":
            let items = row.value.split(separator: ",").map { typed(field, $0.trimmingCharacters(in: .whitespaces)) }
            return [field: ["$in": .array(items)]]
        default:
            let names = ["eq": "$eq", "ne": "$ne", "lt": "$lt", "lte": "$lte", "gt": "$gt", "gte": "$gte"]
            guard let name = names[row.op] else { throw ParseError(.invalidQuery, "Unknown operator: \(ClassName.printable(row.op))") }
            return [field: [name: typed(field, row.value)]]
        }
    }

    /// A typed value for `field` from the text of the filter's box.
    func typed(_ field: String, _ text: String) -> JSON {
        let type: FieldType? = field == "createdAt" || field == "updatedAt" ? .date : schema.fields[field]
        switch type {
        case .number?: return Double(text).map(JSON.number) ?? .string(text)
        case .boolean?: return text == "true" ? .bool(true) : text == "false" ? .bool(false) : .string(text)
        case .date?: return ConsoleResponder.localTime(text).map { ["__type": "Date", "iso": .string($0.iso)] } ?? .string(text)
        case .pointer(let target)?: return ["__type": "Pointer", "className": .string(target.rawValue), "objectId": .string(text)]
        default: return .string(text)
        }
    }

    /// The cursor after `object`, in the sort field's typed form; nil for a value that cannot
    /// be compared (the page then has no next link).
    func cursor(after object: JSON) -> String? {
        guard let id = object["objectId"]?.stringValue else { return nil }
        var value = object[sort] ?? .null
        if sort == "createdAt" || sort == "updatedAt", let iso = value.stringValue { value = ["__type": "Date", "iso": .string(iso)] }
        return JSONWriter.string(["v": value, "id": .string(id)], sortedKeys: true)
    }

    /// This page's query string, with another sort or cursor.
    func link(sortingBy column: String? = nil, after cursor: String? = nil) -> String {
        var values: [String: String] = [:]
        for (i, row) in filters.enumerated() {
            values["f\(i)"] = row.field
            values["o\(i)"] = row.op
            values["v\(i)"] = row.value
        }
        if !advancedText.isEmpty { values["where"] = advancedText }
        if let column {
            values["sort"] = column
            if column == sort && !descending { values["dir"] = "desc" }
        } else {
            values["sort"] = sort
            if descending { values["dir"] = "desc" }
        }
        if let cursor { values["after"] = cursor }
        return ConsoleResponder.encodeQuery(values)
    }
}
