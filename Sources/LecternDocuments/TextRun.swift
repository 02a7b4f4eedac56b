import LecternCore
import LecternText

/// The text of one block as it is gathered, piece by piece with each piece's language, the
/// pronunciation it is under and (when tracing) the node it came from; it is normalised
/// (whitespace collapsed, trimmed) with the languages and pronunciations kept as UTF-16 ranges.
struct TextRun {
    private var pieces: [(text: String, language: String?, pronunciation: Int?, origin: XMLNodePointer?)] = []
    private var spoken: [Int: String] = [:]
    private var active: Int?
    /// The pieces that are line breaks (`<br>`).
    private var breaks: Set<Int> = []
    /// Inside `<pre>`: the text's own newlines are line breaks.
    var preformatted = false

    /// A line break (`<br>`): a space in the text, a new line in ``lines()``.
    mutating func appendLineBreak(language: String?) {
        breaks.insert(pieces.count)
        pieces.append(("\n", language, active, nil))
    }

    /// The text as lines (split at line breaks), each trimmed and collapsed, empty ones left
    /// out but inside preformatted text: joined with spaces they are the normalised text.
    /// - parameter blankLines: keep an empty line between two line breaks too (`<br><br>`: a
    ///   stanza's end in a poem set line by line, a paragraph's in loose text), which parts
    ///   paragraphs as a blank line does in a plain text.
    func lines(blankLines: Bool = false) -> [String] {
        var lines: [String] = []
        var current = ""
        for (k, piece) in pieces.enumerated() {
            if breaks.contains(k) {
                lines.append(current)
                current = ""
            } else if preformatted {
                let parts = piece.text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
                current += parts[0]
                for part in parts.dropFirst() {
                    lines.append(current)
                    current = String(part)
                }
            } else {
                current += piece.text
            }
        }
        lines.append(current)
        let collapsed = lines.map(TextLines.collapse)
        // Preformatted text keeps its blank lines (they part its paragraphs), but not at its ends;
        // so does a block asked to.
        guard preformatted || blankLines, let first = collapsed.firstIndex(where: { !$0.isEmpty }),
              let last = collapsed.lastIndex(where: { !$0.isEmpty }) else { return collapsed.filter { !$0.isEmpty } }
        return Array(collapsed[first...last])
    }

    /// Appends a piece of text; `origin` is the text node (or entity reference) it is the text of.
    mutating func append(_ text: String, language: String?, origin: XMLNodePointer? = nil) {
        pieces.append((text, language, active, origin))
    }

    /// Text appended from now until ``endPronunciation(_:)`` is spoken as `spoken` (unless an
    /// enclosing pronunciation is already active: the outer one covers it). Returns `id` when it
    /// took effect.
    mutating func beginPronunciation(_ spoken: String, id: Int) -> Int? {
        guard active == nil else { return nil }
        self.spoken[id] = spoken
        active = id
        return id
    }

    mutating func endPronunciation(_ id: Int) {
        if active == id { active = nil }
    }

    var isBlank: Bool { pieces.allSatisfy { $0.text.allSatisfy(\.isWhitespace) } }

    /// The text, the spans in a language other than `base` (default: the language of most of the
    /// text), the base language, the pronunciations, and — when `tracing` — where each UTF-16 unit
    /// of the text came from (nil for a space standing for collapsed whitespace and for text
    /// appended without an origin; empty when not tracing).
    func normalised(base: String? = nil, tracing: Bool = false)
        -> (text: String, spans: [LanguageSpan], base: String?, pronunciations: [Pronunciation], origins: [TextOrigin?]) {
        var text = ""
        var runs: [(start: Int, end: Int, language: String?)] = []
        var marked: [Int: (start: Int, end: Int)] = [:]
        var origins: [TextOrigin?] = []
        var utf16 = 0
        var pendingSpace = false
        for piece in pieces {
            var offset = 0  // into the piece, in UTF-16 units
            for ch in piece.text {
                let width = ch.utf16.count
                defer { offset += width }
                if ch.isWhitespace {
                    pendingSpace = !text.isEmpty
                    continue
                }
                if pendingSpace {
                    text.append(" ")
                    utf16 += 1
                    pendingSpace = false
                    if tracing { origins.append(nil) }
                }
                let start = utf16
                text.append(ch)
                utf16 += width
                if tracing {
                    for k in 0..<width { origins.append(piece.origin.map { TextOrigin(node: $0, offset: offset + k) }) }
                }
                if let p = piece.pronunciation { marked[p] = (marked[p]?.start ?? start, utf16) }
                if let last = runs.last, last.language == piece.language, last.end == start || last.end + 1 == start {
                    runs[runs.count - 1].end = utf16
                } else {
                    runs.append((start, utf16, piece.language))
                }
            }
        }
        var weights: [String?: Int] = [:]
        for r in runs { weights[r.language, default: 0] += r.end - r.start }
        let blockLanguage = base ?? weights.max { $0.value < $1.value }?.key ?? nil
        let spans = runs.filter { $0.language != nil && $0.language != blockLanguage }.map {
            LanguageSpan(offset: $0.start, length: $0.end - $0.start, language: $0.language!)
        }
        let pronunciations = marked.sorted { $0.key < $1.key }.map {
            Pronunciation(offset: $0.value.start, length: $0.value.end - $0.value.start, spoken: spoken[$0.key] ?? "")
        }
        return (text, spans, blockLanguage, pronunciations, origins)
    }
}
