import LecternCore

/// Plays read as plays, whatever the format: in a book whose paragraphs are mostly speeches
/// headed by the speaker's name (`ROPER.` on a line of its own, or `HAMLET. To be…` at a
/// speech's start, the same names coming back), the names are speaker labels (a block kind of
/// their own) and the stage directions — a paragraph set wholly in italics or in brackets, a
/// bracketed direction inside a speech (`[To FARNCOMBE.] Hul-lo!`) — are blocks of their own,
/// never inside the speech. What the markup says (HTML's `p.speaker`, `span.stagedir`, Standard
/// Ebooks' `z3998:persona`) is kept as it came.
enum PlayReading {
    /// A name alone: capitals, spaces, apostrophes, hyphens and inner periods (`MRS. UPJOHN.`).
    static let label = LinePattern(#"^([A-Z][A-Z'’.\- ]{0,38}[A-Z])\.$"#)
    /// A name at a speech's start: `HAMLET. To be, or not…`.
    static let prefix = LinePattern(#"^([A-Z][A-Z'’\- ]{0,38}[A-Z])\.\s+(\S.*)$"#)
    /// How many labels make a play, and how often its main speakers come back.
    static let minimumLabels = 20
    static let minimumRepeats = 5

    static func apply(_ items: [TextItem]) -> [TextItem] {
        var names: [String: Int] = [:]
        var marked = false
        for item in items {
            guard case .paragraph(let p) = item else { continue }
            if p.kind == .speaker || (p.kind == .stageDirection && !p.italic) { marked = true }
            guard p.kind == .paragraph, let name = label.capture(1, in: p.text) ?? prefix.capture(1, in: p.text),
                  TextLines.wordCount(name) <= 4, HeadingCandidate.of(name + ".") == nil else { continue }
            names[name, default: 0] += 1
        }
        let labels = names.values.reduce(0, +)
        let isPlay = labels >= minimumLabels && names.values.filter { $0 >= minimumRepeats }.count >= 2
        guard isPlay || marked else {
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
            if p.kind == .paragraph, let name = label.capture(1, in: p.text), speakers.contains(name) {
                var speaker = p
                speaker.kind = .speaker
                return [.paragraph(speaker)]
            }
            var pieces: [TextParagraph] = []
            var rest = p
            if p.kind == .paragraph, let name = prefix.capture(1, in: p.text), speakers.contains(name) {
                let cut = name.utf16.count + 1
                pieces.append(p.slice(0..<cut, kind: .speaker))
                rest = p.slice(cut..<p.text.utf16.count, kind: .paragraph)
            }
            pieces += directions(in: rest)
            return pieces.filter { !$0.text.isEmpty }.map { .paragraph($0) }
        }
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
