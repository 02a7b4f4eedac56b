import Foundation
import Testing

/// What a user wrote comes back in an error as an excerpt, never as a megabyte; libraries'
/// internal names never reach a message; thirty slow lexicon patterns cost one budget.
struct UserInputEchoTests {
    /// A megabyte in each place a manifest's value is echoed: the error line stays short and
    /// still says what is wrong where.
    @Test func aHugeValueIsNotEchoedBack() throws {
        let ws = try Workspace("echo-huge")
        try ws.write("book.txt", "Once upon a time there was a book.\n")
        let huge = String(repeating: "x(", count: 500_000)
        let cases: [(String, String)] = [
            ("title: T\nsources: [book.txt]\nvoice: { rate: \"\(huge)\" }\n", "voice.rate"),
            ("title: T\nsources: [{ path: book.txt, skip: ['\(huge)'] }]\n", "skip"),
            ("title: T\nsources: [book.txt]\ntimings: [\"\(huge)\"]\n", "timings"),
            // YAML keys stop at 1,024 characters: a key of 1,000 and an invalid pattern of 1,000.
            ("title: T\nsources: [book.txt]\n\(String(repeating: "y", count: 1000)): 1\n", "unknown key"),
            ("title: T\nsources: [book.txt]\nlexicons: [words.yml]\n", "not a valid regular expression"),
            ("title: T\nsources: [book.txt]\nschedule: \"\(huge)\"\n", "schedule"),
            ("title: T\nsources: [{ path: book.txt, encoding: \"\(huge)\" }]\n", "encoding"),
            ("title: T\nsources: [book.txt]\nvoice: { name: \"\(huge)\" }\n", "unknown voice"),
        ]
        try ws.write("words.yml", "patterns:\n  '(\(String(repeating: "z", count: 1000))': nothing\n")
        for (index, (yaml, expected)) in cases.enumerated() {
            let manifest = try ws.write("m\(index).yml", yaml)
            let result = try Tool.run(Tool.lectern, ["check", manifest.path])
            #expect(result.status == 1, "case \(index): \(result.status)")
            #expect(result.stderr.contains(expected), "case \(index): \(result.stderr.prefix(400))")
            // A megabyte in, a line out: the unknown-key message lists the manifest's keys, which grow with it.
            #expect(result.stderr.count < 800, "case \(index) echoed \(result.stderr.count) characters: \(result.stderr.prefix(300))…")
        }
    }

    /// YAML nested past libyaml's limit: the message names the file and line and says what is
    /// wrong in Lectern's words, not libyaml's function names.
    @Test func deepYAMLNestingSaysWhatIsWrong() throws {
        let ws = try Workspace("echo-nesting")
        let manifest = try ws.write("deep.yml", "title: T\nsources: " + String(repeating: "[", count: 20_000) + "\n")
        let result = try Tool.run(Tool.lectern, ["check", manifest.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("deep.yml"), "\(result.stderr)")
        #expect(!result.stderr.contains("yaml_"), "libyaml's internals in the message: \(result.stderr)")
        #expect(result.stderr.count < 400, "\(result.stderr)")
    }

    /// Thirty catastrophic lexicon patterns: `check` stops within the book's one budget (five
    /// seconds, plus a second per million characters) and names a pattern, instead of spending
    /// a budget on each.
    @Test func slowLexiconPatternsShareTheBooksBudget() throws {
        let ws = try Workspace("echo-regex")
        let words = String(repeating: "Alice was beginning to get very tired of sitting by her sister on the bank. ", count: 40)
        try ws.write("book.txt", words + "\n")
        let patterns = (0..<30).map { "  '^(\\w+\\s?)+\($0)$': slow" }.joined(separator: "\n")
        try ws.write("slow.yml", "patterns:\n\(patterns)\n")
        try ws.write("book.yml", "title: T\nsources: [book.txt]\nlexicons: [slow.yml]\n")
        let started = Date()
        let result = try Tool.run(Tool.lectern, ["check", ws.url.appendingPathComponent("book.yml").path])
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 1, "\(result.stdout.suffix(300)) \(result.stderr)")
        #expect(result.stderr.contains("took more than"), "\(result.stderr)")
        #expect(elapsed < 14, "check took \(elapsed) s on thirty slow patterns")
    }
}
