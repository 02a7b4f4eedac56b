import Foundation
import Testing
@testable import LecternDocuments

/// Issue #22: every libxml2 limit that could cut a document short — the 10,000,000-character
/// limit on a text node, CDATA section, comment, processing instruction and attribute value,
/// the 50,000-character limit on names, the nesting limit — either reads the document to its
/// end or is an error naming the line, in both parsers; and `XML_PARSE_HUGE` does not re-open
/// entity expansion (billion laughs).
struct XMLTreeLimitTests {
    static let big = 10_100_000
    static let after = "<p>After words here.</p>"

    static func xhtml(_ body: String) -> Data {
        Data(#"<html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title></head><body>\#(body)\#(after)</body></html>"#.utf8)
    }

    static func html(_ body: String) -> Data { Data("<html><body>\(body)\(after)</body></html>".utf8) }

    static let filler = String(repeating: "a", count: big)

    static let constructs: [(String, String)] = [
        ("text node", "<p>\(filler)</p>"),
        ("CDATA section", "<style><![CDATA[\(filler)]]></style>"),
        ("comment", "<!--\(filler)-->"),
        ("processing instruction", "<?lectern \(filler)?>"),
        ("attribute value", "<p title=\"\(filler)\">x</p>"),
        ("attribute name", "<p d\(String(repeating: "a", count: 60_000))=\"1\">x</p>"),
        ("element name", "<d\(String(repeating: "a", count: 60_000))>x</d\(String(repeating: "a", count: 60_000))>"),
        ("20,000 attributes", "<p " + (0..<20_000).map { "a\($0)=\"1\"" }.joined(separator: " ") + ">x</p>"),
    ]

    @Test(arguments: constructs.map(\.0))
    func aDocumentPastEachLimitIsReadToItsEnd(construct: String) throws {
        let body = try #require(Self.constructs.first { $0.0 == construct }?.1)
        let xml = try XMLTree.xml(Self.xhtml(body), name: "huge.xhtml")
        #expect(xml.root?.textContent.hasSuffix("After words here.") == true, "XML parser, \(construct)")
        let html = try #require(try XMLTree.html(Self.html(body), name: "huge.html"))
        #expect(html.root?.textContent.hasSuffix("After words here.") == true, "HTML parser, \(construct)")
    }

    @Test func nestingPastTheLimitIsAnErrorNamingItsLineInBothParsers() throws {
        let deep = "\n" + String(repeating: "<div>", count: XMLTree.maxDepth + 10) + "x" + String(repeating: "</div>", count: XMLTree.maxDepth + 10)
        for (name, parse) in [("xml", { try XMLTree.xml(Self.xhtml(deep), name: "deep.xhtml") as XMLTree? }),
                              ("html", { try XMLTree.html(Self.html(deep), name: "deep.html") })] {
            do { _ = try parse(); Issue.record("\(name): accepted") } catch let error as XMLTree.ParseError {
                #expect(error.line == 2 && error.message.contains("nested more than \(XMLTree.maxDepth) deep"), "\(name): \(error)")
            }
        }
    }

    @Test func entitiesStopTheParserBeforeAnyExpansion() throws {
        var dtd = #"<!DOCTYPE html [<!ENTITY lol "lol">"#
        for i in 1...12 { dtd += "<!ENTITY lol\(i) \"" + String(repeating: "&lol\(i == 1 ? "" : String(i - 1));", count: 10) + "\">" }
        let document = Data((dtd + #"]><html xmlns="http://www.w3.org/1999/xhtml" title="&lol12;"><body><p>&lol12;</p></body></html>"#).utf8)
        let clock = ContinuousClock()
        let start = clock.now
        do { _ = try XMLTree.xml(document, name: "laughs.xhtml"); Issue.record("accepted") } catch let error as XMLTree.ParseError {
            #expect(error.message.contains("an entity \"lol\"") && error.message.contains("billion laughs"), "\(error)")
        }
        #expect(clock.now - start < .seconds(2))
    }
}
