import Foundation
import LecternCore

/// What the e-text's producer wrote about the e-text, under no transcriber's-note title: a
/// paragraph that names Project Gutenberg or the transcriber, or speaks of the digital edition's
/// files and screens (`MIDI`, `PDF`, `UTF-8`, `browser`, `mouse-hover popups` — two such words at
/// least, in an e-text of a printed book: a book printed on paper says none of them). A careful narrator reads none of it: it is
/// skipped as a transcriber's note, with the paragraphs between two of them (a bullet, a step
/// of the same instructions) and a short title right before the first (`About the Music`).
enum ProducersMatter {
    /// Words only the producer of the e-text uses of it.
    static let producer = LinePattern(
        #"\bproject\s+gutenberg\b|\bgutenberg\.org\b|\b(?:the|this|by\s+the|our)\s+transcriber\b|\btranscriber['’]s\b"#,
        caseInsensitive: true)
    /// What a digital edition is made of, and where it is shown.
    static let digital = LinePattern(
        #"\b(?:e-?texts?|e-?books?|utf-?8|unicode|browsers?|mouse[- ]?(?:hover|over)|pop-?ups?|midi|mp3|pdf|lilypond|html|hyperlinks?|"#
            + #"download(?:s|ed|ing)?|web\s?sites?|internet|online|text\s+files?|directory|[a-z0-9-]+\.(?:org|com|net))\b"#,
        caseInsensitive: true)
    /// The longest paragraph taken for a producer's: a longer one mentions these things in passing.
    static let maxWords = 200
    /// The most words read between two of the producer's paragraphs that join them.
    static let maxGap = 60
    static let reason = SkipReason.transcribersNote

    /// Whether `text`, a whole paragraph, is the producer's. `transcribed`: the book is an e-text of a
    /// printed one (it has Project Gutenberg's header or licence), so that words of the digital world are
    /// the producer's; in a book about computers they are the author's.
    static func isProducers(_ text: String, transcribed: Bool) -> Bool {
        guard TextLines.wordCount(text) <= maxWords else { return false }
        var flat = TextLines.collapse(text.replacingOccurrences(of: "_", with: " "))
        // A bracketed note inside it (`[Note Project Gutenberg: …]`) is silent there, not the paragraph's.
        for note in InlineMarks.producersNotes(in: flat).reversed() {
            flat = (flat as NSString).replacingCharacters(in: NSRange(location: note.offset, length: note.length), with: " ")
        }
        if producer.matches(flat) { return true }
        guard transcribed else { return false }
        let terms = Set(digital.allMatches(flat).map { (flat as NSString).substring(with: $0.range).lowercased().filter(\.isLetter) })
        return terms.count >= 2
    }

    /// `pieces` with the producer's paragraphs skipped.
    static func apply(_ pieces: [StructurePiece], transcribed: Bool) -> [StructurePiece] {
        let flagged = pieces.indices.filter { k in
            if case .paragraph(let lines, _) = pieces[k] { return isProducers(lines.joined(separator: " "), transcribed: transcribed) }
            return false
        }
        guard !flagged.isEmpty else { return pieces }
        var out = pieces
        var k = 0
        while k < flagged.count {
            // The run: the next flagged paragraphs with little read between them, and no heading.
            var last = k
            while last + 1 < flagged.count, joins(pieces, from: flagged[last], to: flagged[last + 1]) { last += 1 }
            var start = flagged[k]
            if let title = titleBefore(start, in: pieces) { start = title }
            let range = start...flagged[last]
            let total = pieces[range].reduce(0) { $0 + words(of: $1) }
            if total <= (SkipBounds.bounds[reason]?.words ?? 0) {
                for j in range { out[j] = skipped(pieces[j]) }
            } else {
                for j in flagged[k...last] { out[j] = skipped(pieces[j]) }
            }
            k = last + 1
        }
        return out
    }

    /// Whether the pieces between two flagged paragraphs are few, short paragraphs (or section breaks, skips).
    static func joins(_ pieces: [StructurePiece], from a: Int, to b: Int) -> Bool {
        var read = 0
        var count = 0
        for j in (a + 1)..<b {
            switch pieces[j] {
            case .heading: return false
            case .paragraph, .note:
                count += 1
                read += words(of: pieces[j])
            default: break
            }
        }
        return count <= 2 && read <= maxGap
    }

    /// A short title (`About the Music`) right before the paragraph at `k`: a paragraph, or a heading
    /// no chapter keyword names, of at most six words not ending a sentence.
    static func titleBefore(_ k: Int, in pieces: [StructurePiece]) -> Int? {
        var j = k - 1
        while j >= 0, case .sectionBreak = pieces[j] { j -= 1 }
        guard j >= 0 else { return nil }
        let text: String
        switch pieces[j] {
        case .paragraph(let lines, _): text = lines.joined(separator: " ")
        case .heading(let lines, _, let c) where c.kind == .fallback: text = lines.joined(separator: " ")
        default: return nil
        }
        let flat = TextLines.trim(TextLines.collapse(text.replacingOccurrences(of: "_", with: " ")))
        guard TextLines.wordCount(flat) <= 6, let end = flat.last, !".!?\"”’»".contains(end), !BackMatter.theEnd.matches(flat) else { return nil }
        return j
    }

    static func words(of piece: StructurePiece) -> Int {
        switch piece {
        case .paragraph(let lines, _), .note(_, let lines, _), .heading(let lines, _, _): lines.reduce(0) { $0 + TextLines.wordCount($1) }
        default: 0
        }
    }

    static func skipped(_ piece: StructurePiece) -> StructurePiece {
        if case .heading(let lines, let first, _) = piece {
            return .skipped(text: TextLines.collapse(lines.joined(separator: " ")), reason: reason, firstLine: first)
        }
        return piece.skipped(reason) ?? piece
    }
}
