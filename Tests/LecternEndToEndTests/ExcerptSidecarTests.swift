import Foundation
import Testing
import LecternTestSupport

/// An excerpt cut with `start_at`/`end_at`: the sidecar and `check --text` summarise what lies
/// outside the cut as one entry a side — its reason, how many words, its first and last words —
/// instead of carrying the rest of the book.
struct ExcerptSidecarTests {
    @Test func whatLiesOutsideTheCutIsOneEntryASide() throws {
        let ws = try Workspace("excerpt")
        let front = (1...40).map { "Front matter line \($0) of the title pages." }.joined(separator: "\n\n")
        let rest = (1...300).map { "Later paragraph \($0) says nothing the excerpt wants, zanzibar \($0)." }.joined(separator: "\n\n")
        try ws.write("book.txt", """
            \(front)

            CHAPTER I. The Part We Want

            This is the excerpt, read aloud from beginning to end.

            CHAPTER II. The Part We Do Not Want

            \(rest)
            """)
        let manifest = try ws.write("book.yml", """
            title: Excerpt
            sources:
              - path: book.txt
                start_at: "^CHAPTER I\\\\."
                end_at: "^CHAPTER II\\\\."
            """)
        let rendered = try RenderedJob.run(ws, manifest)
        let skipped = rendered.sidecar["skipped"] as? [[String: Any]] ?? []
        let before = skipped.filter { $0["cut"] as? String == "before" }
        let after = skipped.filter { $0["cut"] as? String == "after" }
        #expect(before.count == 1 && after.count == 1, "\(skipped.map { $0["reason"] ?? "" })")
        // 40 front lines of 8 words; 300 later paragraphs of 10 words (the end marker's own line is listed apart).
        #expect(before.first?["words"] as? Int == 40 * 8, "\(before)")
        #expect(after.first?["words"] as? Int == 300 * 10, "\(after)")
        let afterText = after.first?["text"] as? String ?? ""
        #expect(afterText.hasPrefix("Later paragraph 1 ") && afterText.hasSuffix("zanzibar 300."), "\(afterText)")
        #expect(afterText.count < 140)
        #expect(skipped.contains { ($0["reason"] as? String ?? "").hasPrefix("end marker") && $0["words"] == nil })
        let sidecarText = try String(contentsOf: ws.url.appendingPathComponent("out/book/book.timings.json"), encoding: .utf8)
        #expect(!sidecarText.contains("zanzibar 150"), "the sidecar still carries the text outside the cut")

        let script = try Tool.run(Tool.lectern, ["check", "--text", manifest.path])
        try #require(script.status == 0, "\(script.stderr)")
        let cutLines = script.stdout.split(separator: "\n").filter { $0.contains("[skipped: after the end marker") }
        #expect(cutLines.count == 1 && cutLines.first?.contains("(3000 words)") == true, "\(cutLines)")
    }
}
