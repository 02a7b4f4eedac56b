import Foundation
import Testing
@testable import LecternDocuments

/// The corpus's plain texts, decoded and split as the reader does, and the checks every analysis must pass.
enum PlainTextCorpus {
    static let alice = "text/pg11-alice-in-wonderland.txt"
    static let pride = "text/pg1342-pride-and-prejudice.txt"
    static let nowhere = "text/pg3261-news-from-nowhere.txt"
    static let sheppard = "text/pg16215-jack-sheppard.txt"
    static let essays = "text/pg16351-critical-and-historical-essays.txt"
    static let all = [alice, pride, nowhere, sheppard, essays]

    /// The file's lines: UTF-8 (ISO-8859-1 for the essays), CRLF and bare CR turned into LF.
    static func lines(_ path: String) throws -> [String] {
        let data = try Data(contentsOf: Corpus.file(path))
        let text = path == essays ? String(data: data, encoding: .isoLatin1) : String(data: data, encoding: .utf8)
        return split(try #require(text))
    }

    static func split(_ text: String) -> [String] {
        var t = text
        if t.hasPrefix("\u{FEFF}") { t.removeFirst() }
        t = t.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        return t.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}

extension TextItem {
    var heading: TextHeading? { if case .heading(let h) = self { h } else { nil } }
    var paragraph: TextParagraph? { if case .paragraph(let p) = self { p } else { nil } }
    var note: TextNote? { if case .note(let n) = self { n } else { nil } }
    var skipped: SkippedPassage? { if case .skipped(let s) = self { s } else { nil } }

    /// The words the item carries, for word accounting.
    var texts: [String] {
        switch self {
        case .heading(let h): h.lines
        case .paragraph(let p): [p.text]
        case .note(let n): [n.text]
        case .skipped(let s): [s.text]
        case .sectionBreak, .chapter, .oversizedSkip: []
        }
    }
}

/// Words compared by their letters and digits only, so `_very_` and `very`, or `I.]` and `I.`, are the same word
/// (and `<b>PARODY</b>`, its tags emphasis, and `PARODY`).
func accountingWords(_ text: String) -> [String] {
    Emphasis.removingTags(text).split(whereSeparator: \.isWhitespace).map { String($0.filter { $0.isLetter || $0.isNumber }) }.filter { !$0.isEmpty }
}

/// Every word of the input comes out exactly once, in order. Returns the first mismatch, if any.
func wordAccountingMismatch(_ lines: [String], _ items: [TextItem]) -> String? {
    let input = lines.flatMap(accountingWords)
    let output = items.flatMap { $0.texts.flatMap(accountingWords) }
    if input == output { return nil }
    let firstDiff = zip(input, output).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(input.count, output.count)
    let a = input[max(0, firstDiff - 5)..<min(input.count, firstDiff + 8)].joined(separator: " ")
    let b = output[max(0, firstDiff - 5)..<min(output.count, firstDiff + 8)].joined(separator: " ")
    return "input has \(input.count) words, output \(output.count); first difference at word \(firstDiff): input «\(a)» output «\(b)»"
}
