/// Validation of Parse's `__type` values, a closed set: anything else is refused.
public enum SpecialValues {
    /// The schema type of a plain value (not an `__op`), validating special shapes.
    ///
    /// Returns nil for `null`, which sets no type.
    public static func type(of value: JSON) throws(ParseError) -> FieldType? {
        switch value {
        case .null: return nil
        case .bool: return .boolean
        case .number: return .number
        case .string: return .string
        case .array(let elements):
            for element in elements { try validateNested(element) }
            return .array
        case .object(let members):
            guard let type = members["__type"] else {
                try validateNestedKeys(members)
                return .object
            }
            guard case .string(let name) = type else { throw ParseError(.incorrectType, "__type must be a string") }
            return try specialType(name, members)
        }
    }

    private static func specialType(_ name: String, _ m: [String: JSON]) throws(ParseError) -> FieldType {
        switch name {
        case "Date":
            guard let iso = m["iso"]?.stringValue, ParseDate(iso: iso) != nil, m.count == 2 else {
                throw ParseError(.incorrectType, "invalid Date value")
            }
            return .date
        case "Pointer":
            guard let cls = m["className"]?.stringValue, let id = m["objectId"]?.stringValue, ObjectId.isPlausible(id) else {
                throw ParseError(.invalidPointer, "invalid Pointer value")
            }
            return .pointer(try ClassName(cls))
        case "Relation":
            guard let cls = m["className"]?.stringValue else { throw ParseError(.incorrectType, "invalid Relation value") }
            return .relation(try ClassName(cls))
        case "GeoPoint":
            guard let lat = m["latitude"]?.numberValue, let lng = m["longitude"]?.numberValue else {
                throw ParseError(.incorrectType, "invalid GeoPoint value")
            }
            guard (-90...90).contains(lat), (-180...180).contains(lng) else {
                throw ParseError(.invalidJSON, "GeoPoint latitude must be in [-90, 90] and longitude in [-180, 180]")
            }
            return .geoPoint
        case "Bytes":
            guard let b64 = m["base64"]?.stringValue, isBase64(b64) else { throw ParseError(.incorrectType, "invalid Bytes value") }
            return .bytes
        case "File":
            guard let fileName = m["name"]?.stringValue, !fileName.isEmpty, fileName.utf8.count <= 256 else {
                throw ParseError(.incorrectType, "invalid File value")
            }
            if let url = m["url"], url.stringValue == nil { throw ParseError(.incorrectType, "invalid File value") }
            return .file
        case "Polygon":
            guard let coords = m["coordinates"]?.arrayValue, coords.count >= 3 else {
                throw ParseError(.incorrectType, "Polygon must have at least 3 coordinates")
            }
            for pair in coords {
                guard let p = pair.arrayValue, p.count == 2, let lat = p[0].numberValue, let lng = p[1].numberValue,
                    (-90...90).contains(lat), (-180...180).contains(lng)
                else { throw ParseError(.incorrectType, "invalid Polygon coordinates") }
            }
            return .polygon
        default:
            throw ParseError(.incorrectType, "invalid __type: \(ClassName.printable(name))")
        }
    }

    /// Checks a value nested inside an Object or Array: special values must be well formed and
    /// keys may not contain `$` or `.` (121).
    static func validateNested(_ value: JSON) throws(ParseError) {
        switch value {
        case .array(let elements): for element in elements { try validateNested(element) }
        case .object(let members):
            if members["__type"] != nil {
                _ = try type(of: value)
            } else {
                try validateNestedKeys(members)
            }
        default: break
        }
    }

    private static func validateNestedKeys(_ members: [String: JSON]) throws(ParseError) {
        for (key, member) in members {
            if key.contains("$") || key.contains(".") {
                throw ParseError(.invalidNestedKey, "Nested keys should not contain the '$' or '.' characters")
            }
            try validateNested(member)
        }
    }

    private static func isBase64(_ text: String) -> Bool {
        text.utf8.allSatisfy { b in
            (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2B || b == 0x2F
                || b == 0x3D || b == 0x2D || b == 0x5F
        }
    }
}
