import Foundation
import RooftopCore

/// A point on Earth, stored as Parse's `GeoPoint`.
public struct RTGeoPoint: Sendable, Hashable {
    /// Degrees north, -90…90.
    public var latitude: Double
    /// Degrees east, -180…180.
    public var longitude: Double

    /// A point.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// Swift values ↔ Parse's JSON encoding (`parse-protocol.md` §2.2).
enum ValueCoding {
    /// The JSON of a value a user stored: strings, numbers, booleans, dates, data, arrays,
    /// dictionaries, objects (as pointers), files (saved), geo points, ACLs and `NSNull`.
    static func encode(_ value: Any) throws(RTError) -> JSON {
        // An NSNumber (a value read from the server) first: cast to Bool, 1 would become true.
        if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
            return String(cString: number.objCType) == "c" ? .bool(number.boolValue) : try encode(number.doubleValue)
        }
        switch value {
        case let value as String: return .string(value)
        case let value as Bool: return .bool(value)
        case let value as Int: return .number(Double(value))
        case let value as Double:
            guard value.isFinite else { throw RTError(.invalidJSON, "Numbers must be finite.") }
            return .number(value)
        case let value as Float: return try encode(Double(value))
        case let value as any BinaryInteger: return .number(Double(value))
        case let value as Date: return ["__type": "Date", "iso": .string(ParseDate(value).iso)]
        case let value as Data: return ["__type": "Bytes", "base64": .string(value.base64EncodedString())]
        case let value as RTGeoPoint:
            return ["__type": "GeoPoint", "latitude": .number(value.latitude), "longitude": .number(value.longitude)]
        case let value as RTObject:
            guard let id = value.objectId else {
                throw RTError(.missingObjectId, "A \(value.className) must be saved before another object can point to it.")
            }
            return ["__type": "Pointer", "className": .string(value.className), "objectId": .string(id)]
        case let value as RTACL: return try value.json()
        case let value as RTFile: return try value.json()
        case is NSNull: return .null
        case let value as JSON: return value
        case let value as [Any]:
            var result: [JSON] = []
            for element in value { result.append(try encode(element)) }
            return .array(result)
        case let value as [String: Any]:
            var result: [String: JSON] = [:]
            for (key, element) in value { result[key] = try encode(element) }
            return .object(result)
        default:
            throw RTError(.incorrectType, "A value of type \(type(of: value)) cannot be stored in an RTObject.")
        }
    }

    /// The Swift value of server JSON: numbers as `NSNumber` (so `as? Int` and `as? Double` both
    /// work), pointers and included objects as `RTObject`s bound to `user`.
    static func decode(_ json: JSON, user: RTUser?) -> Any {
        switch json {
        case .null: return NSNull()
        case .bool(let value): return value
        case .string(let value): return value
        case .number(let value):
            return value.rounded() == value && abs(value) < 9e15 ? NSNumber(value: Int(value)) : NSNumber(value: value)
        case .array(let values): return values.map { decode($0, user: user) }
        case .object(let members):
            switch members["__type"]?.stringValue {
            case "Date":
                if let iso = members["iso"]?.stringValue, let date = ParseDate(iso: iso) { return date.date }
            case "Bytes":
                if let base64 = members["base64"]?.stringValue, let data = Data(base64Encoded: base64) { return data }
            case "GeoPoint":
                if let latitude = members["latitude"]?.numberValue, let longitude = members["longitude"]?.numberValue {
                    return RTGeoPoint(latitude: latitude, longitude: longitude)
                }
            case "File":
                if let name = members["name"]?.stringValue {
                    return RTFile(savedName: name, url: members["url"]?.stringValue.flatMap(URL.init(string:)))
                }
            case "Pointer", "Object":
                if let className = members["className"]?.stringValue, let id = members["objectId"]?.stringValue {
                    let object = RTObject.make(className: className, user: user)
                    object.objectId = id
                    if members["__type"] == "Object" { object.merge(server: members, user: user, complete: true) }
                    return object
                }
            default:
                break
            }
            return members.mapValues { decode($0, user: user) }
        }
    }
}

extension ParseDate {
    /// The date, to the millisecond.
    init(_ date: Date) { self.init(millisecondsSince1970: Int64((date.timeIntervalSince1970 * 1000).rounded())) }

    /// As a `Date`.
    var date: Date { Date(timeIntervalSince1970: Double(millisecondsSince1970) / 1000) }
}
