import RooftopCore
import Testing

@Suite struct BoundedRegexTests {
    @Test(arguments: [
        ("^Ana", "", "Ana Lima", true), ("^ana", "i", "Ana", true), ("^ana", "", "Ana", false), ("b+c$", "", "abbbc", true),
        ("colou?r", "", "color", true), ("\\d{3}-\\d{2}", "", "tel 123-45", true), ("[a-c]x", "", "dx", false),
        ("^\\Qa.b\\E", "", "a.b", true), ("^\\Qa.b\\E", "", "axb", false), ("^b$", "m", "a\nb\nc", true), ("a.c", "", "a\nc", false),
        ("a.c", "s", "a\nc", true), ("(cat|dog)s", "", "hotdogs", true), ("\\bword\\b", "", "a word here", true),
        ("a b # comment", "x", "ab", true), ("[^0-9]+", "", "123", false),
    ])
    func matchesLikeJavaScript(_ pattern: String, _ options: String, _ text: String, _ expected: Bool) throws {
        #expect(try BoundedRegex(pattern, options: options).matches(text) == expected)
    }

    /// A pattern that makes backtracking engines take exponential time finishes at once here.
    @Test func hostilePatternIsLinear() throws {
        let regex = try BoundedRegex("^(a+)+$")
        #expect(regex.matches(String(repeating: "a", count: 5000) + "!") == false)
        #expect(regex.matches(String(repeating: "a", count: 5000)) == true)
    }

    @Test(arguments: ["(a)\\1", "(?=a)", "a{2000}", "(unclosed"])
    func refusesUnsupported(_ pattern: String) {
        #expect { try BoundedRegex(pattern) } throws: { ($0 as? ParseError)?.code == .invalidQuery }
    }
}
