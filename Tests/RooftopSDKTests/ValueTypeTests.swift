import Foundation
import Rooftop
import RooftopCore
import Testing

/// Every Parse type an `RTObject` holds goes to the server and comes back as the same Swift
/// value; a value read back can be stored again unchanged (1 stays a number, not `true`).
extension SDKTests {
    @Suite struct ValueTypeTests {
        @Test func everyTypeRoundTrips() async throws {
            try await withSDK { server, _ in
                let date = Date(timeIntervalSince1970: 1_700_000_000.123)
                let target = RTObject(className: "Target")
                try await target.save()
                let object = RTObject(className: "Thing")
                object["string"] = "héllo"
                object["int"] = 1
                object["zero"] = 0
                object["double"] = 2.5
                object["bool"] = true
                object["date"] = date
                object["data"] = Data([0, 1, 254, 255])
                object["array"] = [1, "two", false] as [Any]
                object["dictionary"] = ["nested": ["deep": 3]] as [String: Any]
                object["pointer"] = target
                object["geo"] = RTGeoPoint(latitude: 35.68, longitude: 139.76)
                object["null"] = NSNull()
                try await object.save()

                let read = try await RTQuery(className: "Thing").getObject(withId: object.objectId ?? "")
                #expect(read["string"] as? String == "héllo")
                #expect(read["int"] as? Int == 1 && read["zero"] as? Int == 0 && read["double"] as? Double == 2.5)
                #expect(read["bool"] as? Bool == true)
                #expect((read["date"] as? Date).map { abs($0.timeIntervalSince(date)) < 0.001 } == true)
                #expect(read["data"] as? Data == Data([0, 1, 254, 255]))
                let array = try #require(read["array"] as? [Any])
                #expect(array.count == 3 && array[0] as? Int == 1 && array[1] as? String == "two" && array[2] as? Bool == false)
                #expect(((read["dictionary"] as? [String: Any])?["nested"] as? [String: Any])?["deep"] as? Int == 3)
                let pointer = try #require(read["pointer"] as? RTObject)
                #expect(pointer.className == "Target" && pointer.objectId == target.objectId)
                #expect(read["geo"] as? RTGeoPoint == RTGeoPoint(latitude: 35.68, longitude: 139.76))
                #expect(read["null"] is NSNull)

                // Copy every value read into a new object: the server must hold the same JSON.
                let copy = RTObject(className: "Thing")
                for key in ["string", "int", "zero", "double", "bool", "date", "data", "array", "dictionary", "pointer", "geo", "null"] {
                    copy[key] = read[key]
                }
                try await copy.save()
                let (_, original) = try await server.rest("GET", "/classes/Thing/\(object.objectId ?? "")", master: true)
                let (_, copied) = try await server.rest("GET", "/classes/Thing/\(copy.objectId ?? "")", master: true)
                #expect(copied["int"] == 1 && copied["zero"] == 0 && copied["bool"] == true)
                #expect(copied["array"] == [1, "two", false])
                for key in ["string", "int", "zero", "double", "bool", "date", "data", "array", "dictionary", "pointer", "geo", "null"] {
                    #expect(copied[key] == original[key], "\(key)")
                }
            }
        }

        @Test func unstorableValuesAreRefused() async throws {
            try await withSDK { _, _ in
                let object = RTObject(className: "Thing")
                object["nan"] = Double.nan
                await #expect(throws: RTError.self) { try await object.save() }
                let unsaved = RTObject(className: "Thing")
                unsaved["pointer"] = RTObject(className: "Other")
                unsaved["nan"] = nil
                // A pointer to an unsaved object is saved first, as in Parse's SDKs.
                try await unsaved.save()
                #expect((unsaved["pointer"] as? RTObject)?.objectId != nil)
            }
        }
    }
}
