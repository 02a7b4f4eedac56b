import Testing
import LecternCore

/// User input in messages: control characters escaped, long values cut to an excerpt.
struct UserTextTests {
    @Test func controlCharactersAreEscaped() {
        #expect(UserText.escapingControls("a\nb\tc\u{1B}d") == "a\\nb\\tc\\u{1B}d")
        #expect(UserText.escapingControls("l'été \"x\"") == "l'été \"x\"")
    }

    @Test func aLongValueIsCutToAnExcerpt() {
        let selector = String(repeating: "div ", count: 250_000)
        let shown = UserText.excerpt(selector)
        #expect(shown.count < 160, "\(shown.count) characters")
        #expect(shown.hasPrefix("div div") && shown.hasSuffix("… (1000000 characters)"), "\(shown)")
        #expect(UserText.excerpt("short") == "short")
    }

    @Test func yamlQuotingReadsBackAsWritten() throws {
        for name in ["a\nb.txt", "l'été.txt", "\"q\".txt", "back\\slash", "tab\there", "\u{7}bell"] {
            let yaml = "title: T\nsources: [{ path: \(ManifestLoader.yamlQuoted(name)) }]\n"
            #expect(yaml.split(separator: "\n").count == 2, "\(yaml)")
        }
    }
}
