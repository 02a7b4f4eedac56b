import Foundation
import Testing
@testable import LecternDocuments

/// Analyses hand-made text (split at "\n") and checks that every word comes out once.
func analysed(_ text: String, illustrations: PlainTextStructure.Illustrations = .skip,
              sourceLocation: SourceLocation = #_sourceLocation) -> [TextItem] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let items = PlainTextStructure.analyse(lines, illustrations: illustrations)
    #expect(wordAccountingMismatch(lines, items) == nil, sourceLocation: sourceLocation)
    return items
}

/// Items in a compact form: "H chapter: CHAPTER I. | Title", "P: text", "N 1: text", "S reason: text", "B".
func summary(_ items: [TextItem]) -> [String] {
    items.map { item in
        switch item {
        case .heading(let h): "H \(h.level): " + h.lines.joined(separator: " | ")
        case .paragraph(let p): "P: " + p.text
        case .note(let n): "N \(n.id): " + n.text
        case .sectionBreak: "B"
        case .chapter(let title, _): "C \(title)"
        case .skipped(let s): "S \(s.reason): " + s.text
        case .oversizedSkip(let o): "W \(o.reason): \(o.words) words"
        }
    }
}

/// The text a listener hears: the paragraph without its silent stretches.
func spoken(_ p: TextParagraph) -> String {
    let units = Array(p.text.utf16)
    var keep = [Bool](repeating: true, count: units.count)
    for s in p.silent { for k in s.offset..<(s.offset + s.length) { keep[k] = false } }
    let kept = zip(units, keep).filter(\.1).map(\.0)
    return String(decoding: kept, as: UTF16.self)
}

/// The substrings a paragraph's silent stretches cover, with their reasons.
func silentTexts(_ p: TextParagraph) -> [String] {
    let ns = p.text as NSString
    return p.silent.map { "\($0.reason): " + ns.substring(with: NSRange(location: $0.offset, length: $0.length)) }
}
