import RooftopPostgres
import RooftopStorage
import Testing

/// What PostgreSQL is sent for Parse's regular expressions and long names.
@Suite struct PostgresDialectTests {
    let dialect = PostgresDialect()

    @Test func regexPatternsKeepParseMeaning() {
        // The SDKs' hasPrefix: \Q…\E quoting becomes escaped literals.
        #expect(dialect.regexPattern(#"^\Qa.b(c)\E"#, options: "") == #"(?p)^a\.b\(c\)"#)
        #expect(dialect.regexPattern(#"\bword\B"#, options: "") == #"(?p)\yword\Y"#)
        #expect(dialect.regexPattern("^a$", options: "m") == "(?n)^a$")
        #expect(dialect.regexPattern("a.b", options: "s") == "a.b")
        #expect(dialect.regexPattern("a b", options: "mx") == "(?nx)a b")
        #expect(dialect.regexPattern(#"\d+"#, options: "i") == #"(?p)\d+"#)
    }

    @Test func longNamesStayDistinct() {
        let a = dialect.quote("_Join:" + String(repeating: "f", count: 40) + ":OwnerClassA")
        let b = dialect.quote("_Join:" + String(repeating: "f", count: 40) + ":OwnerClassB")
        #expect(a != b && a.utf8.count <= 65 && b.utf8.count <= 65)
        #expect(dialect.quote("Note") == "\"Note\"")
    }
}
