import Foundation
import LecternCore
import Testing
@testable import LecternExport

/// Who speaks, in the exports made from the sidecar (issue 26, item 6): WebVTT voice spans with
/// the name escaped as the WebVTT spec says, and the read-along page's data.
@Suite struct PersonaExportTests {
    static func document(persona: String?, label: String? = nil) throws -> TimingDocument {
        var document = try PartsFixture.document(withParts: false)
        document.chapters[0].paragraphs[0].persona = persona
        document.chapters[0].paragraphs[0].speakerLabel = label
        return document
    }

    @Test func aPersonasCuesAreVoiceSpansWithTheNameEscaped() throws {
        let document = try Self.document(persona: "Tom & Jerry <the cat>\nII")
        for cues in [WebVTTCues.sentences, .captions] {
            let vtt = WebVTTWriter.render(document, cues: cues)
            let blocks = vtt.components(separatedBy: "\n\n").filter { $0.contains("-->") }
            let first = document.chapters[0].paragraphs[0].sentences.count
            let spoken = blocks.filter { $0.contains("<v ") }
            #expect(spoken.count >= first, "\(cues)")
            for block in spoken {
                let text = block.split(separator: "\n", maxSplits: 2).dropFirst(2).joined()
                #expect(text.hasPrefix("<v Tom &amp; Jerry &lt;the cat&gt; II>") && text.hasSuffix("</v>"), "\(block)")
            }
        }
        let plain = WebVTTWriter.render(try Self.document(persona: nil))
        #expect(!plain.contains("<v "), "the narrator's cues have no voice span")
    }

    @Test func thePagesDataCarriesPersonaAndSilentLabel() throws {
        func paragraph(_ document: TimingDocument) throws -> [Any] {
            let data = try #require(try JSONSerialization.jsonObject(with: Data(ReadAlongPage.data(for: document).utf8)) as? [String: Any])
            let chapters = try #require(data["c"] as? [[Any]])
            return try #require((chapters[0][3] as? [[Any]])?.first)
        }
        let both = try paragraph(try Self.document(persona: "Roper", label: "ROPER."))
        #expect(both.count == 7 && both[4] is NSNull && both[5] as? String == "Roper" && both[6] as? String == "ROPER.")
        let persona = try paragraph(try Self.document(persona: "Roper"))
        #expect(persona.count == 6 && persona[5] as? String == "Roper")
        #expect(try paragraph(try Self.document(persona: nil)).count == 4, "nothing added for the narrator")
    }
}
