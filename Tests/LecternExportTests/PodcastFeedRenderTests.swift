import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import LecternCore
import Testing
@testable import LecternExport

/// The podcast feed's pure renderers (issue 27): the RSS document read back by an XML parser,
/// the chapters JSON and the WebVTT transcript timed to an episode's own audio.
@Suite struct PodcastFeedRenderTests {
    static let hostile = "Tom & Jerry <\"Caf\u{e9}\"> 'n' \u{1}Ünïcødé 🎧"

    static func feed(title: String = hostile) -> PodcastFeedXML {
        let base = "https://example.org/feeds/s3cr%C3%A9t"
        let channel = PodcastFeedXML.Channel(
            title: title, description: "About \(title)", language: "en", link: URL(string: base + "/")!,
            feedURL: URL(string: base + "/feed.xml")!, author: "A & B <c>", image: URL(string: base + "/cover.png")!,
            guid: "9b024349-ccf0-5f69-a609-6b82873eab3c", copyright: "© 2026 \"Us\"")
        let item = PodcastFeedXML.Item(
            title: "Chapter 1: \(title)", guid: "lectern:book:01-one", published: Date(timeIntervalSince1970: 1_800_000_000),
            enclosure: URL(string: base + "/audio/01-one.mp3?a=1&b=2")!, length: 12345, mediaType: "audio/mpeg", durationMs: 61_499,
            episode: 1, chapters: URL(string: base + "/chapters/01-one.json")!, transcript: URL(string: base + "/transcripts/01-one.vtt")!)
        return PodcastFeedXML(channel: channel, items: [item])
    }

    @Test func everyUserStringReadsBackAsWrittenFromTheXML() throws {
        let xml = Self.feed().render()
        let read = try ParsedXML(Data(xml.utf8))
        let expected = Self.hostile.replacingOccurrences(of: "\u{1}", with: "")
        #expect(read.texts["rss/channel/title"] == [expected])
        #expect(read.texts["rss/channel/itunes:author"] == ["A & B <c>"])
        #expect(read.texts["rss/channel/copyright"] == ["© 2026 \"Us\""])
        #expect(read.texts["rss/channel/item/title"] == ["Chapter 1: \(expected)"])
        #expect(read.attributes["rss/channel/item/enclosure"]?.first?["url"] == "https://example.org/feeds/s3cr%C3%A9t/audio/01-one.mp3?a=1&b=2")
        #expect(read.attributes["rss/channel/item/enclosure"]?.first?["length"] == "12345")
        #expect(read.texts["rss/channel/item/itunes:duration"] == ["61"])
        #expect(read.texts["rss/channel/item/pubDate"] == ["Fri, 15 Jan 2027 08:00:00 +0000"])
        #expect(read.attributes["rss/channel/item/podcast:chapters"]?.first?["type"] == "application/json+chapters")
        #expect(read.attributes["rss/channel/item/podcast:transcript"]?.first?["type"] == "text/vtt")
        #expect(read.attributes["rss/channel/itunes:category"]?.first?["text"] == "Arts")
        #expect(read.attributes["rss/channel/itunes:category/itunes:category"]?.first?["text"] == "Books")
        let declared = { (prefix: String) in read.namespaces[prefix] ?? read.attributes["rss"]?.first?["xmlns:" + prefix] }
        #expect(declared("itunes") == "http://www.itunes.com/dtds/podcast-1.0.dtd")
        #expect(declared("podcast") == "https://podcastindex.org/namespace/1.0")
    }

    @Test func escapingLeavesOutWhatXMLCannotHold() {
        #expect(PodcastFeedXML.escape("a\u{0}b\u{8}c\td\ne\u{FFFE}") == "abc\td\ne")
        #expect(PodcastFeedXML.escape("<&>\"'") == "&lt;&amp;&gt;&quot;&apos;")
    }

    @Test func chaptersAreSecondsOfTheEpisodesAudioAsJSON() throws {
        let document = try PartsFixture.document()
        let book = PodcastChapters(title: "Novel", chapters: PodcastChapters.chapters(of: document.chapters))
        let parsed = try #require(try JSONSerialization.jsonObject(with: book.json()) as? [String: Any])
        #expect(parsed["version"] as? String == "1.2.0")
        let chapters = try #require(parsed["chapters"] as? [[String: Any]])
        #expect(chapters.map { $0["title"] as? String } == document.chapters.map(\.title))
        #expect(chapters.map { ($0["startTime"] as? NSNumber)?.doubleValue } == document.chapters.map { Double($0.start) / 1000 })
        #expect(chapters.map { ($0["endTime"] as? NSNumber)?.doubleValue } == document.chapters.map { Double($0.end) / 1000 })

        // A chapter file: its chapter moved to its own start, which is 0.
        let third = document.chapters[2]
        let file = PodcastChapters.chapters(of: [third], offsetMs: third.start)
        #expect(file == [PodcastChapters.Chapter(title: third.title, startMs: 0, endMs: third.end - third.start)])
        let exact = PodcastChapters(chapters: [.init(title: "x", startMs: 1001, endMs: 62_345)]).json()
        #expect(String(decoding: exact, as: UTF8.self).contains("\"startTime\" : 1.001"), "milliseconds written exactly")
    }

    @Test func theBooksTranscriptIsItsWebVTTExport() throws {
        let document = try PartsFixture.document()
        for cues in WebVTTCues.allCases {
            #expect(PodcastTranscript.webVTT(document, cues: cues) == WebVTTWriter.render(document, cues: cues))
        }
    }

    @Test func aChapterFilesTranscriptIsTimedFromItsOwnStart() throws {
        let document = try PartsFixture.document()
        let third = document.chapters[2]
        let vtt = PodcastTranscript.webVTT(document, chapters: [third.number], offsetMs: third.start)
        let notes = vtt.components(separatedBy: "\n").filter { $0.hasPrefix("NOTE") }
        #expect(notes.count == 1 && notes[0].hasSuffix("Chapter \(third.number): \(third.title)"), "\(notes)")
        let sentence = third.paragraphs[0].sentences[0]
        let timing = CueText.clock(sentence.start - third.start, separator: ".") + " --> " + CueText.clock(sentence.end - third.start, separator: ".")
        #expect(vtt.contains("\n" + timing + "\n"), "\(vtt)")
        let second = sentence.words[1].start - third.start
        #expect(vtt.contains("<" + CueText.clock(second, separator: ".") + ">"), "the word tag moved too: \(vtt)")
        #expect(sentence.start - third.start < 1000, "the fixture's times are within the chapter")
    }
}

/// Every element's text and attributes by path (`rss/channel/title`), as an XML parser reads them.
final class ParsedXML: NSObject, XMLParserDelegate {
    var texts: [String: [String]] = [:]
    var attributes: [String: [[String: String]]] = [:]
    var namespaces: [String: String] = [:]
    private var path: [String] = []
    private var text = ""

    init(_ data: Data) throws {
        super.init()
        let parser = XMLParser(data: data)
        parser.delegate = self
        parser.shouldReportNamespacePrefixes = true
        guard parser.parse() else { throw TestError("not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "?")") }
    }

    func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
        namespaces[prefix] = namespaceURI
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        path.append(qualifiedName ?? name)
        self.attributes[path.joined(separator: "/"), default: []].append(attributes)
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        texts[path.joined(separator: "/"), default: []].append(text)
        text = ""
        path.removeLast()
    }
}

struct TestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
