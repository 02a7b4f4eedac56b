import Foundation
import Testing
@testable import LecternExport

/// The read-along page's HTML and embedded data, without a browser (the end-to-end tests open it
/// in Chromium).
@Suite struct ReadAlongPageEncodingTests {
    static let text = "Tom & \"Jerry\" </script><!-- 🎉 e\u{301}"

    static func document() throws -> TimingDocument {
        let json = """
            {"format": "lectern-timings", "version": 1,
             "units": {"time": "ms", "textOffset": "utf16"},
             "title": "A <b>&</b> \\"B\\"", "author": "O'Neil", "audio": "my book #1.mp3",
             "sampleRate": 22050, "durationMs": 9000, "sampleCount": 198450, "wordCount": 3,
             "chapters": [{"number": 1, "title": "One </script>", "start": 0, "end": 9000, "paragraphs": [
               {"kind": "paragraph", "voice": "en", "start": 5000, "end": 6000, "text": \(try String(decoding: JSONEncoder().encode(text), as: UTF8.self)),
                "sentences": [{"offset": 0, "length": 33, "start": 5000, "end": 6000, "words": [
                  {"offset": 0, "length": 3, "start": 5000, "end": 5200},
                  {"offset": 6, "length": 7, "start": 5200, "end": 5600},
                  {"offset": 31, "length": 2, "start": 5600, "end": 6000, "estimated": true}]}]}]}],
             "skipped": []}
            """
        return try JSONDecoder().decode(TimingDocument.self, from: Data(json.utf8))
    }

    @Test func embeddedDataCannotCloseItsScriptAndDecodesToTheSidecarsText() throws {
        let data = ReadAlongPage.data(for: try Self.document())
        #expect(!data.contains("<") && !data.contains(">") && !data.contains("&"))
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
        let chapter = try #require((decoded["c"] as? [[Any]])?.first)
        #expect(chapter[0] as? String == "One </script>")
        #expect(chapter[1] as? Int == 0 && chapter[2] as? Int == 9000)
        let paragraph = try #require((chapter[3] as? [[Any]])?.first)
        #expect(paragraph[0] as? String == "paragraph")
        #expect(paragraph[1] as? String == Self.text)
        #expect(paragraph[2] as? Int == 5000)
        let sentence = try #require((paragraph[3] as? [[Any]])?.first)
        #expect(sentence.prefix(4).compactMap { $0 as? Int } == [0, 33, 0, 1000], "sentence times are relative to the paragraph")
        #expect(sentence[4] as? [Int] == [0, 3, 0, 200, 6, 7, 200, 600, 31, 2, 600, 1000])
    }

    @Test func pageEscapesTheTitleAndLinksTheAudioByARelativeURL() throws {
        let page = ReadAlongPage.html(for: try Self.document(), audio: "my book #1.mp3")
        #expect(page.contains("<title>A &lt;b&gt;&amp;&lt;/b&gt; &quot;B&quot;</title>"))
        #expect(page.contains("<p class=\"author\">O&#39;Neil</p>"))
        #expect(page.contains("src=\"my%20book%20%231.mp3\""))
        #expect(page.components(separatedBy: "</script>").count == 3, "only the two script elements close")
        #expect(!page.contains("http://") && !page.contains("https://"))
    }
}
