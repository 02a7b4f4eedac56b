import Foundation
import Testing
import LecternTesting

/// Issue #12: what espeak-ng will say, checked with espeak-ng itself — `espeak-ng -q -x` on the
/// text `lectern check --text` reports as spoken, compared with the words a narrator says.
struct SpokenFormTests {
    /// espeak-ng's phonemes for `text` in `voice`, whitespace collapsed.
    static func phonemes(_ text: String, voice: String = "en-gb") throws -> String {
        let result = try Tool.run("espeak-ng", ["-q", "-x", "-v", voice, text])
        guard result.status == 0 else { throw TestFailure("espeak-ng failed: \(result.stderr)") }
        return result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The script's spoken lines (headings and paragraphs), without their markers.
    static func spokenLines(_ script: String) -> [String] {
        script.components(separatedBy: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("  [skipped: ") }.map {
            $0.hasPrefix("  [heading] ") ? String($0.dropFirst("  [heading] ".count)) : $0.trimmingCharacters(in: .whitespaces)
        }
    }

    @Test func numeralsAreSpokenAsANarratorSaysThemAndThePronounStays() throws {
        let ws = try Workspace("spoken")
        try ws.write("book.txt", """
            CHAPTER XIV.

            The Restoration

            When Charles II. came back, I said nothing; Louis XIV was king in France.
            """)
        let script = try Tool.run(Tool.lectern, ["check", "--text", ws.url.appendingPathComponent("book.txt").path])
        try #require(script.status == 0, "\(script.stderr)")
        let lines = Self.spokenLines(script.stdout)
        let heading = try #require(lines.first { $0.uppercased().hasPrefix("CHAPTER") })
        #expect(try Self.phonemes(heading) == Self.phonemes("chapter fourteen"), "\(heading)")
        let paragraph = try #require(lines.first { $0.contains("came back") })
        let said = try Self.phonemes(paragraph)
        #expect(said.contains(try Self.phonemes("the second")), "\(paragraph) → \(said)")
        #expect(said.contains(try Self.phonemes("the fourteenth")), "\(paragraph) → \(said)")
        #expect(said.contains(try Self.phonemes("I said")), "the pronoun stays: \(paragraph) → \(said)")
    }

    @Test(.enabled(if: Corpus.available, "needs ../shared/corpus (the shared test corpus) beside the clone"))
    func corpusHeadingsAndRegnalNumbersAreSpokenAsWords() throws {
        let lines = Self.spokenLines(try Corpus.script("text/pg1342-pride-and-prejudice.txt"))
        let fourteen = try #require(lines.first { $0.hasPrefix("CHAPTER") && $0.contains("14") || $0.uppercased() == "CHAPTER XIV" },
                                    "chapter fourteen's heading")
        #expect(try Self.phonemes(fourteen) == Self.phonemes("chapter fourteen"), "\(fourteen)")
        // In the essays, kings are numbered as a narrator says them.
        let essays = try Corpus.script("text/pg16351-critical-and-historical-essays.txt")
        let henry = try #require(Self.spokenLines(essays).first { $0.contains("Henry") && $0.contains("Eighth") || $0.contains("Henry the 8") })
        #expect(try Self.phonemes(henry).contains(Self.phonemes("Henry the Eighth")), "\(henry)")
    }
}
