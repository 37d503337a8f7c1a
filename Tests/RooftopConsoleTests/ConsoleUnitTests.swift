import Foundation
import RooftopConsole
import RooftopHTTP
import RooftopServices
import RooftopTesting
import Testing

/// Fast checks of the console's parts: templates compile and escape, both languages have every
/// word, CSRF tokens compare exactly, forms are read as plain strings.
@Suite struct ConsoleUnitTests {
    @Test func everyTemplateCompilesAndEscapes() {
        #expect(ConsoleResponder.brokenTemplates.isEmpty)
        #expect(ConsoleResponder.missingWords.isEmpty)
        let html = ConsoleResponder.renderMessage(heading: "<img src=x onerror=alert(1)>\"'&", language: "ja")
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;"))
        #expect(!html.contains("<img"))
        #expect(html.contains("このページはありません。"))
    }

    @Test func everyTemplateFileIsCompiledIn() throws {
        let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/RooftopConsole/Resources")
        let files = try FileManager.default.contentsOfDirectory(atPath: resources.path).filter { $0.hasSuffix(".mustache") }
        #expect(!files.isEmpty)
        #expect(files.map { String($0.dropLast(".mustache".count)) }.sorted() == ConsoleResponder.templateNames)
    }

    @Test func csrfTokensMatchExactly() {
        let token = "q6kF3x0n1bIYc9iZ0Q3k2VtB2R5ZyYw8dJp4a7c0mLs"
        #expect(ConsoleSessions.csrfMatches(token, token))
        for given in [nil, "", String(token.dropLast()), token + "x", token.uppercased(), " " + token, token + "\u{0}"] as [String?] {
            #expect(!ConsoleSessions.csrfMatches(given, token))
        }
        #expect(!ConsoleSessions.csrfMatches("", ""), "an empty expected token never matches")
    }

    @Test func formsAreFlatStrings() {
        let form = ConsoleResponder.parseForm("csrf=a%2Bb&csrf=second&name=o+p&x[%24ne]=1&bad=%ZZ&empty")
        #expect(form["csrf"] == "a+b", "the first value wins")
        #expect(form["name"] == "o p")
        #expect(form["x[$ne]"] == "1", "brackets are part of a name, never an operator")
        #expect(form["bad"] == "")
        #expect(form["empty"] == "")
        let many = (0..<1000).map { "f\($0)=v" }.joined(separator: "&")
        #expect(ConsoleResponder.parseForm(many).count == ConsoleResponder.maxFormPairs)
        #expect(URLEncodedForm.parse(many).count == 50, "the public hosted pages read fewer")
    }
}
