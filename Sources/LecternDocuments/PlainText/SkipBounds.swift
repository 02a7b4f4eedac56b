import LecternCore

/// The most words a passage of each kind can hold and still be what the reading pass takes it
/// for, each from what the kind is. A candidate over its bound is read, not skipped, and the
/// reader warns (``OversizedSkip``): the bound is the safety net under the detectors, whose own
/// ends follow the passage's shape.
///
/// Kinds not listed are bounded by what marks them: an HTML element (a page number, an image, a
/// navigation list) or a rule the manifest gives (`skip:`, `start_at:`, `matter:`).
enum SkipBounds {
    /// A bound and why it is that size.
    struct Bound {
        var words: Int
        var why: String
    }

    static let bounds: [SkipReason: Bound] = [
        SkipReason.gutenbergHeader: Bound(words: 5_000, why: "lines up to PG's START marker; the old small print is about 3,000 words"),
        SkipReason.gutenbergLicence: Bound(words: 7_000, why: "PG's licence from its END marker is about 3,000 words, with a donation notice 4,000"),
        SkipReason.producersCredit: Bound(words: 150, why: "a block of at most six lines naming who made the e-text"),
        SkipReason.titlePage: Bound(words: 1_500, why: "title, half-title, dedication, imprint: a few short lines a page"),
        SkipReason.contentsList: Bound(words: 6_000, why: "a short line an entry (a synopsis at most), the entries coming back as headings"),
        SkipReason.illustrationsList: Bound(words: 3_000, why: "a short caption and a page number a plate"),
        SkipReason.index: Bound(words: 40_000, why: "short lines of terms and page numbers; a large book's index is some 30,000 words"),
        SkipReason.errata: Bound(words: 1_500, why: "a line or two a correction, a few dozen corrections"),
        SkipReason.glossary: Bound(words: 12_000, why: "a word and a short gloss a line"),
        SkipReason.advertisements: Bound(words: 10_000, why: "a publisher's catalogue of a few pages after THE END"),
        SkipReason.colophon: Bound(words: 200, why: "a printer's imprint of a few lines"),
        SkipReason.transcribersNote: Bound(words: 2_000, why: "a note on spelling and a list of the corrections made"),
        SkipReason.illustration: Bound(words: 400, why: "one bracketed caption of at most 80 lines"),
        SkipReason.transcribersNotation: Bound(words: 1_500, why: "bracketed notation lines, at most 12 lines each, in one run"),
        SkipReason.table: Bound(words: 3_000, why: "one block of columns"),
        SkipReason.footnoteLabel: Bound(words: 10, why: "a note's label: `[1]`, `Footnote 2:`"),
        SkipReason.footnotesHeading: Bound(words: 10, why: "a line: `FOOTNOTES:`"),
    ]

    /// Kinds whose pieces, when they follow one another, are one passage (a title page of several
    /// blocks, a catalogue of several listings).
    static let runs: Set<SkipReason> = [.titlePage, .advertisements, .colophon]

    /// The candidate `lines`, starting at line `firstLine`, when it is too long to be a `reason`.
    static func oversized(_ lines: ArraySlice<String>, reason: SkipReason, firstLine: Int) -> OversizedSkip? {
        oversized(text: TextLines.collapse(lines.joined(separator: " ")), reason: reason, firstLine: firstLine)
    }

    static func oversized(text: String, reason: SkipReason, firstLine: Int) -> OversizedSkip? {
        guard let bound = bounds[reason] else { return nil }
        let words = TextLines.wordCount(text)
        guard words > bound.words else { return nil }
        return OversizedSkip(reason: reason, words: words, bound: bound.words, firstWords: OversizedSkip.opening(text), firstLine: firstLine)
    }

    /// The pieces with every skipped passage the scanner did not bound (the whole-book passes'
    /// title page, advertisements, colophon; single captions and labels) checked: one over its
    /// bound is read again as the paragraphs its lines make.
    /// - parameter limit: the end (exclusive) of the body's lines.
    static func apply(_ pieces: [StructurePiece], lines: [String], limit: Int, checked: Set<SkipReason>) -> (pieces: [StructurePiece], oversized: [OversizedSkip]) {
        var out: [StructurePiece] = []
        var found: [OversizedSkip] = []
        var k = 0
        while k < pieces.count {
            guard case .skipped(_, let reason, let first) = pieces[k], !checked.contains(reason), bounds[reason] != nil else {
                out.append(pieces[k])
                k += 1
                continue
            }
            // A run goes on across other skipped pieces between its own (a title page's page
            // numbers and images), which keep their reasons if the run is read.
            var end = k + 1
            if runs.contains(reason) {
                while end < pieces.count, case .skipped(_, let other, _) = pieces[end] {
                    guard other == reason || pieces[(end + 1)...].prefix(while: \.isSkipped).contains(where: { $0.isSkipped(reason) }) else { break }
                    end += 1
                }
            }
            let text = pieces[k..<end].compactMap { if case .skipped(let t, reason, _) = $0 { t } else { nil } }.joined(separator: " ")
            if let over = oversized(text: text, reason: reason, firstLine: first) {
                found.append(over)
                for n in k..<end {
                    guard pieces[n].isSkipped(reason) else { out.append(pieces[n]); continue }
                    let start = pieces[n].firstLine
                    let last = n + 1 < pieces.count ? pieces[n + 1].firstLine : limit
                    out += paragraphs(lines, start..<max(start + 1, last))
                }
            } else {
                out += pieces[k..<end]
            }
            k = end
        }
        return (out, found)
    }

    /// The blocks of `range` as paragraphs.
    static func paragraphs(_ lines: [String], _ range: Range<Int>) -> [StructurePiece] {
        var out: [StructurePiece] = []
        var block: [String] = []
        var start = range.lowerBound
        for i in range {
            if TextLines.isBlank(lines[i]) {
                if !block.isEmpty { out.append(.paragraph(lines: block, firstLine: start)) }
                block = []
            } else {
                if block.isEmpty { start = i }
                block.append(TextLines.trim(lines[i]))
            }
        }
        if !block.isEmpty { out.append(.paragraph(lines: block, firstLine: start)) }
        return out
    }
}
