import Foundation
import Testing
import LecternTesting

/// Text marked as another language (`lang`, `xml:lang`) is spoken with a voice for it, and the
/// sidecar records which voice spoke which span.
struct LanguageSwitchingTests {
    static let page = """
        <!DOCTYPE html>
        <html lang="en"><head><title>Postcard</title></head><body>
        <h1>A Postcard from Paris</h1>
        <p>At the café the waiter smiled and said <span lang="fr">je ne sais pas, mon ami, revenez demain matin</span> before he walked away.</p>
        <p lang="de">Guten Morgen, wie geht es Ihnen heute?</p>
        <p>The rest of the letter is plain English.</p>
        </body></html>
        """

    static func render(_ ws: Workspace, switching: Bool) throws -> RenderedJob {
        try ws.write("postcard.html", page)
        let name = switching ? "on" : "off"
        let manifest = try ws.write("\(name).yml", """
            title: Postcard
            sources: [postcard.html]
            voice: { name: en-gb }
            languages: { de: { name: de, rate: 0.45 } }
            language_switching: \(switching)
            """)
        return try RenderedJob.run(ws, manifest)
    }

    @Test func aFrenchSpanIsSpokenWithAFrenchVoiceAndRecordedInTheSidecar() throws {
        let ws = try Workspace("languages")
        let on = try Self.render(ws, switching: true)
        let paragraphs = on.paragraphs
        let cafe = try #require(paragraphs.first { ($0["text"] as? String ?? "").hasPrefix("At the café") })
        #expect(cafe["voice"] as? String == "en-gb")
        let spans = cafe["spans"] as? [[String: Any]] ?? []
        try #require(spans.count == 1, "\(cafe)")
        let text = cafe["text"] as! String
        let units = Array(text.utf16)
        let offset = spans[0]["offset"] as! Int, length = spans[0]["length"] as! Int
        #expect(String(decoding: units[offset..<(offset + length)], as: UTF16.self) == "je ne sais pas, mon ami, revenez demain matin")
        #expect(spans[0]["voice"] as? String == "fr" && spans[0]["language"] as? String == "fr")
        // Every word, in either language, is timed, in order.
        let words = (cafe["sentences"] as? [[String: Any]] ?? []).flatMap { $0["words"] as? [[String: Any]] ?? [] }
        #expect(words.count == independentWords(text).count)
        let starts = words.compactMap { $0["start"] as? Int }
        #expect(starts == starts.sorted())
        // A whole paragraph in German takes the manifest's German voice.
        let german = try #require(paragraphs.first { ($0["text"] as? String ?? "").hasPrefix("Guten Morgen") })
        #expect(german["voice"] as? String == "de")
        #expect(german["language"] as? String == "de" && german["detected"] == nil, "a declared language is recorded, not as detected")
        #expect(cafe["language"] == nil, "the book's own language is not repeated")
        #expect((paragraphs.last?["voice"] as? String) == "en-gb")

        // With switching off, one voice reads everything and the French is read differently.
        let off = try Self.render(ws, switching: false)
        let plain = try #require(off.paragraphs.first { ($0["text"] as? String ?? "").hasPrefix("At the café") })
        #expect(plain["spans"] == nil && plain["voice"] as? String == "en-gb")
        #expect(off.paragraphs.allSatisfy { $0["voice"] as? String == "en-gb" })
        let spokenOn = (cafe["end"] as! Int) - (cafe["start"] as! Int), spokenOff = (plain["end"] as! Int) - (plain["start"] as! Int)
        #expect(spokenOn != spokenOff, "the French voice speaks the span differently (\(spokenOn) ms vs \(spokenOff) ms)")
        let pcm = try Tool.decode(on.mp3)
        #expect(abs(pcm.count - (on.sidecar["sampleCount"] as? Int ?? 0)) <= 576)
    }
}
