import RooftopCore
import Testing

@Suite struct JSONParserTests {
    @Test func parsesNestedValues() throws {
        let value = try JSONParser.parse(#"{"a":[1,2.5,"x\u00e9",true,null],"b":{"c":-3e2}}"#)
        #expect(value["a"] == [1, 2.5, "xé", true, nil])
        #expect(value["b"]?["c"] == -300)
    }

    @Test(arguments: [#"{"a":1,"a":2}"#, #"{"a":1"#, "[1,]", #"{"a":01}"#, "{} x", #""\ud800""#])
    func rejectsMalformed(_ text: String) {
        #expect(throws: ParseError.self) { try JSONParser.parse(text) }
    }

    @Test func rejectsInvalidUTF8() {
        let bytes: [UInt8] = [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xC3, 0x28, 0x22, 0x7D]
        #expect { try JSONParser.parse(bytes) } throws: { ($0 as? ParseError)?.code == .invalidJSON }
    }

    @Test func rejectsDeepNestingFast() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect { try JSONParser.parse(deep) } throws: { ($0 as? ParseError)?.code == .invalidJSON }
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSONParser.parse(ok) }
    }

    @Test func writerRoundTrips() throws {
        let value: JSON = ["s": "q\"\n\u{1}", "n": 3, "f": 0.5, "a": [true, nil]]
        #expect(try JSONParser.parse(JSONWriter.string(value)) == value)
        #expect(JSONWriter.string(["b": 1, "a": 2], sortedKeys: true) == #"{"a":2,"b":1}"#)
        // Escapes at the start, between and after runs copied whole, and multi-byte text kept.
        #expect(JSONWriter.string(.string("\"ab\\c\td\u{1f}é🙂\n")) == #""\"ab\\c\td\u001fé🙂\n""#)
        #expect(JSONWriter.string(.string("")) == #""""#)
    }

    @Test func datesRoundTrip() throws {
        let date = try #require(ParseDate(iso: "2024-05-01T12:34:56.789Z"))
        #expect(date.iso == "2024-05-01T12:34:56.789Z")
        #expect(ParseDate(iso: "1969-12-31T23:59:59.999Z")?.millisecondsSince1970 == -1)
        #expect(ParseDate(iso: "2024-05-01T14:34:56.789+02:00") == date)
        #expect(ParseDate(iso: "2024-13-01T00:00:00Z") == nil)
        #expect(ParseDate(millisecondsSince1970: 0).iso == "1970-01-01T00:00:00.000Z")
        #expect(ParseDate(millisecondsSince1970: -1).iso == "1969-12-31T23:59:59.999Z")
        #expect(ParseDate(iso: "0001-02-03T04:05:06.007Z")?.iso == "0001-02-03T04:05:06.007Z")
        #expect(ParseDate(iso: "9999-12-31T23:59:59.999Z")?.iso == "9999-12-31T23:59:59.999Z")
    }
}
