import RooftopCore
import Testing

// Base64url without padding: the round trip, RFC 4648's vectors, and every spelling the strict
// decoder refuses.

@Suite struct Base64URLTests {
    static let vectors: [(String, String)] = [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
    ]

    @Test(arguments: vectors.indices)
    func rfc4648Vectors(_ i: Int) {
        let (plain, encoded) = Self.vectors[i]
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Array(plain.utf8))
    }

    @Test func urlAlphabetAndRoundTrip() {
        #expect(Base64URL.decode("-_-_") == [0xfb, 0xff, 0xbf])
        #expect(Base64URL.encode([0xfb, 0xff, 0xbf]) == "-_-_")
        var generator = SystemRandomNumberGenerator()
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
    }

    @Test(arguments: [
        "Zg==", "Zm8=", "Zm9v=", "Zg=", "Z g", " Zg", "Zg\n", "Zm9v\r\nYg", "Zm+v", "Zm/v", "Zm9v!", "Zm9\u{00e9}",
        "Z", "Zm9vY", "Zh", "Zm9", "Zm9vYmF", "\u{0000}Zg",
    ])
    func refuses(_ text: String) {
        #expect(Base64URL.decode(text) == nil)
    }
}
