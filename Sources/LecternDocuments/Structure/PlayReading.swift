import Foundation
import LecternCore

/// Plays read as plays, whatever the format, by one model: a speech starts at a speaker's label —
/// a name in capitals on a line of its own (`ROPER.`) or at a speech's start (`HAMLET. To be…`),
/// or a bold or small-caps name the markup sets opening a paragraph (`<b>Lane.</b> Yes, sir.`,
/// ``TextParagraph/speakerLabel``). The names are speakers' labels (a block kind of their own)
/// only when the book is a play: labels enough, its main speakers coming back, speakers taking
/// turns, and their speeches making up much of the text (a wine list's `DOM. SEILLY` entry after
/// entry is none). The stage directions — a paragraph set wholly in italics or in brackets, a
/// bracketed direction inside a speech (`[To FARNCOMBE.] Hul-lo!`) — are blocks of their own,
/// never inside the speech. What the markup says (HTML's `p.speaker`, `span.stagedir`, Standard
/// Ebooks' `z3998:persona`) is kept as it came; a persona it names inside a direction is part of
/// the direction (``HTMLWalker``).
enum PlayReading {
    /// A name alone: capitals, spaces, apostrophes, hyphens and inner periods (`MRS. UPJOHN.`).
    static let label = LinePattern(#"^([A-Z][A-Z'’.\- ]{0,38}[A-Z])\.$"#)
    /// A name at a speech's start: `HAMLET. To be, or not…`, `MRS. UPJOHN. Lily!`.
    static let prefix = LinePattern(#"^((?:[A-Z]{1,3}\.\s)?[A-Z][A-Z'’\- ]{0,38}[A-Z])\.\s+(\S.*)$"#)
    /// A word in capitals: after a name's period it goes on with the name (`DOM. SEILLY`), no speech.
    static let capitalWord = LinePattern(#"^[A-Z][A-Z'’\-]+\b"#)
    /// How many labels make a play, and how often its main speakers come back.
    static let minimumLabels = 20
    static let minimumRepeats = 5

    /// A speaker's label a paragraph opens with: the name (its key in capitals, without the
    /// period), how long the label is (UTF-16), and whether it stands alone.
    struct Candidate {
        var key: String
        var length: Int
        var alone: Bool
        /// Whether the name reads as a heading too (`M. Cic.`, `I. Introduction`): a label only
        /// when it comes back (``minimumHeadingLikeRepeats``), as a heading does not.
        var headingLike = false
    }

    /// How often a name that reads as a heading must open a speech to be a speaker's label.
    static let minimumHeadingLikeRepeats = 3

    static func apply(_ items: [TextItem]) -> [TextItem] {
        var found: [(index: Int, candidate: Candidate)] = []
        var marked = false
        for (i, item) in items.enumerated() {
            guard case .paragraph(let p) = item else { continue }
            if p.kind == .speaker || (p.kind == .stageDirection && !p.italic) { marked = true }
            guard p.kind == .paragraph, let candidate = candidate(p) else { continue }
            found.append((i, candidate))
        }
        var names: [String: Int] = [:]
        for (_, c) in found { names[c.key, default: 0] += 1 }
        let headingLike = Set(found.filter { $0.candidate.headingLike && names[$0.candidate.key]! < minimumHeadingLikeRepeats }.map(\.candidate.key))
        if !headingLike.isEmpty {
            found.removeAll { headingLike.contains($0.candidate.key) }
            for key in headingLike { names[key] = nil }
        }
        guard isPlay(found, names: names, items: items) || marked else {
            // Italics alone do not make a stage direction outside a play.
            return items.map { item in
                guard case .paragraph(var p) = item, p.kind == .stageDirection, p.italic else { return item }
                p.kind = .paragraph
                return .paragraph(p)
            }
        }
        let speakers = Set(names.filter { $0.value >= 2 }.keys)
        return items.flatMap { item -> [TextItem] in
            guard case .paragraph(let p) = item, p.kind == .paragraph || p.kind == .stageDirection else { return [item] }
            var pieces: [TextParagraph] = []
            var rest = p
            if p.kind == .paragraph, let c = candidate(p), speakers.contains(c.key) {
                pieces.append(p.slice(0..<c.length, kind: .speaker))
                rest = p.slice(c.length..<p.text.utf16.count, kind: .paragraph)
                if c.alone || rest.text.isEmpty { return pieces.map { .paragraph($0) } }
            }
            pieces += directions(in: rest)
            return pieces.filter { !$0.text.isEmpty }.map { .paragraph($0) }
        }
    }

    /// The speaker's label `p` opens with, if it has one: a name the markup sets (``TextParagraph/speakerLabel``),
    /// a name in capitals alone, or one at the speech's start followed by the speech (not by
    /// more capitals: `DOM. SEILLY` is one name, not a speaker `DOM`).
    static func candidate(_ p: TextParagraph) -> Candidate? {
        let name: String, length: Int, alone: Bool
        let count = p.text.utf16.count
        if let marked = p.speakerLabel, marked <= count {
            let text = String(decoding: Array(p.text.utf16)[..<marked], as: UTF16.self)
            name = text.trimmingCharacters(in: CharacterSet(charactersIn: ".: "))
            length = marked
            alone = p.text.utf16.dropFirst(marked).allSatisfy { $0 == 0x20 || $0 == 0xA0 }
        } else if let n = label.capture(1, in: p.text) {
            (name, length, alone) = (n, count, true)
        } else if let n = prefix.capture(1, in: p.text), let speech = prefix.capture(2, in: p.text), !capitalWord.matches(speech) {
            (name, length, alone) = (n, n.utf16.count + 1, false)
        } else {
            return nil
        }
        guard !name.isEmpty, TextLines.wordCount(name) <= 4 else { return nil }
        let headingLike = HeadingCandidate.of(name.uppercased() + ".") != nil
        // (A name the markup sets may read as a heading and still be a speaker's, if it comes back;
        // a name in capitals that reads as one is a heading.)
        if headingLike, p.speakerLabel == nil { return nil }
        return Candidate(key: name.uppercased(), length: length, alone: alone, headingLike: headingLike)
    }

    /// Whether the labels found make the book a play: enough of them, at least two speakers
    /// coming back, speakers taking turns (a list whose lines open with the same capitals —
    /// `DOM. SEILLY` entry after entry — is no dialogue), and the speeches making up much of the
    /// text between the first label and the last.
    static func isPlay(_ found: [(index: Int, candidate: Candidate)], names: [String: Int], items: [TextItem]) -> Bool {
        guard found.count >= minimumLabels, names.values.filter({ $0 >= minimumRepeats }).count >= 2,
              let first = found.first?.index, let last = found.last?.index else { return false }
        let turns = zip(found, found.dropFirst()).filter { $0.candidate.key != $1.candidate.key }.count
        guard turns * 2 >= found.count - 1 else { return false }
        let labels = Dictionary(found.map { ($0.index, $0.candidate) }, uniquingKeysWith: { a, _ in a })
        var paragraphs = 0, speech = 0
        var afterLabel = false
        for i in first...last {
            guard case .paragraph(let p) = items[i] else { continue }
            paragraphs += 1
            if labels[i] != nil || afterLabel || p.kind == .stageDirection { speech += 1 }
            afterLabel = labels[i]?.alone == true
        }
        return speech * 5 >= paragraphs * 2
    }

    /// A paragraph cut at its bracketed stage directions: `[To FARNCOMBE.] Hul-lo!` is a direction
    /// and a speech; a paragraph wholly in brackets or parentheses is a direction, without them.
    static func directions(in p: TextParagraph) -> [TextParagraph] {
        let units = Array(p.text.utf16)
        let open = UInt16(UInt8(ascii: "[")), close = UInt16(UInt8(ascii: "]"))
        if p.kind == .stageDirection, units.first == open, !units.contains(close) {
            return [p.slice(1..<units.count, kind: .stageDirection)]  // `[_A long direction…_` left open
        }
        let paren = (UInt16(UInt8(ascii: "(")), UInt16(UInt8(ascii: ")")))
        if let first = units.first, let last = units.last, (first == open && last == close) || (first == paren.0 && last == paren.1),
           !units.dropFirst().dropLast().contains(first) {
            return [p.slice(1..<(units.count - 1), kind: .stageDirection)]
        }
        var pieces: [TextParagraph] = []
        var start = 0
        var i = 0
        while i < units.count {
            if units[i] == open, let end = units[(i + 1)...].firstIndex(of: close), !units[(i + 1)..<end].contains(open) {
                pieces.append(p.slice(start..<i, kind: p.kind))
                pieces.append(p.slice((i + 1)..<end, kind: .stageDirection))
                start = end + 1
                i = end + 1
            } else if units[i] == open, !units[(i + 1)...].contains(close), !units[(i + 1)...].contains(open) {
                // `Good-bye. [He vanishes.` — a play's exit is often left open to the speech's end.
                pieces.append(p.slice(start..<i, kind: p.kind))
                pieces.append(p.slice((i + 1)..<units.count, kind: .stageDirection))
                start = units.count
                i = units.count
            } else {
                i += 1
            }
        }
        pieces.append(p.slice(start..<units.count, kind: p.kind))
        return pieces
    }
}

extension TextParagraph {
    /// The stretch `range` (UTF-16) of the paragraph as a paragraph of `kind`, trimmed, with the
    /// silent stretches, spans and pronunciations inside it moved along; note references stay
    /// with the speech (not with a stage direction).
    func slice(_ range: Range<Int>, kind: BlockKind) -> TextParagraph {
        let units = Array(text.utf16)
        var lower = range.lowerBound, upper = range.upperBound
        func isSpace(_ u: UInt16) -> Bool { u == 0x20 || u == 0x09 || u == 0x0A || u == 0xA0 }
        while lower < upper, isSpace(units[lower]) { lower += 1 }
        while upper > lower, isSpace(units[upper - 1]) { upper -= 1 }
        var part = self
        part.text = String(decoding: units[lower..<upper], as: UTF16.self)
        part.kind = kind
        part.italic = italic
        part.silent = silent.filter { $0.offset >= lower && $0.offset + $0.length <= upper }
            .map { SilentStretch(offset: $0.offset - lower, length: $0.length, reason: $0.reason) }
        part.spans = spans.filter { $0.offset >= lower && $0.offset + $0.length <= upper }
            .map { LanguageSpan(offset: $0.offset - lower, length: $0.length, language: $0.language) }
        part.pronunciations = pronunciations.filter { $0.offset >= lower && $0.offset + $0.length <= upper }
            .map { Pronunciation(offset: $0.offset - lower, length: $0.length, spoken: $0.spoken) }
        if kind == .stageDirection || kind == .speaker { part.noteReferences = [] }
        return part
    }
}
