import RooftopCore
import Testing

/// Counted repetition: a quantifier that can never match, or whose count would be cut short, is
/// refused (102) instead of being read as literal text or a different count.
@Suite struct RegexQuantifierTests {
    @Test(arguments: ["a{2,1}", "a{10,9}", "(ab){3,0}", "[a-z]{5,4}$", "a{99999}", "a{1,12345}", "x|a{2,1}", "(a{9,8})+"])
    func refused(_ pattern: String) {
        #expect { try BoundedRegex(pattern) } throws: { ($0 as? ParseError)?.code == .invalidQuery }
    }

    @Test(arguments: [
        ("a{2}", "aa", true), ("^a{2,}$", "aaaa", true), ("^a{2,2}$", "aaa", false), ("a{,2}", "a{,2}", true), ("a{", "a{", true),
        ("a{1,2", "a{1,2", true), ("^a{0,1}$", "", true), ("a{x}", "a{x}", true),
    ])
    func accepted(_ pattern: String, _ text: String, _ expected: Bool) throws {
        #expect(try BoundedRegex(pattern).matches(text) == expected)
    }
}
