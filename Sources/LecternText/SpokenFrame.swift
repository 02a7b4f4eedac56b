import LecternCore

/// Words said around a stretch of a block's text that are not written there — a table's column
/// header before a cell ("Area:" before "12 hectares"), "Table:" and the row count around a
/// caption — expressed as ``Pronunciation``s so that the block's text stays the document's text.
///
/// The words before are said with the stretch's first word, the words after with its last: the
/// cell "12 hectares" under "Area" gets the pronunciation "Area: 12" on "12". espeak-ng's marks
/// inside a replaced stretch map back to that one written word (``SpokenText``), so "12" is timed
/// from where "Area" begins, and every other word keeps its own exact timing. Nothing is timed
/// that is not written, and no written word is timed twice.
public struct SpokenFrame: Equatable, Sendable {
    /// The stretch, in UTF-16 units of the block's text.
    public var range: Range<Int>
    /// Said before the stretch's first word (e.g. "Area:").
    public var before: String?
    /// Said after the stretch's last word (e.g. ", 12 rows.").
    public var after: String?

    public init(range: Range<Int>, before: String? = nil, after: String? = nil) {
        self.range = range
        self.before = before
        self.after = after
    }

    /// `existing` with the frames' words added: on a word without a pronunciation, a new one
    /// (the written word with the frame's words); on a word whose pronunciation is a one-word
    /// respelling inside the stretch, that respelling with the frame's words. A first word spoken
    /// as phonemes (which cannot be mixed with words in one hint) or under a respelling of several
    /// words takes no words before it: they are said after the word before the stretch, if any.
    /// The result is sorted by offset.
    public static func pronunciations(_ frames: [SpokenFrame], in text: String, over existing: [Pronunciation]) -> [Pronunciation] {
        let units = Array(text.utf16)
        let tokens = WordTokenizer.tokens(in: text)
        var result = existing
        func written(_ token: WordTokenizer.Token) -> String { String(decoding: units[token.start..<token.end], as: UTF16.self) }
        /// Applies `transform` to what is said for `token` (its pronunciation, else the word);
        /// false, changing nothing, when a phoneme hint, one of several words or one reaching
        /// outside `range` is there.
        @discardableResult
        func say(at token: WordTokenizer.Token, within range: Range<Int>, _ transform: (String) -> String) -> Bool {
            if let i = result.firstIndex(where: { $0.offset < token.end && token.start < $0.end }) {
                let p = result[i]
                // A respelling of several words keeps its own word count, or its words' timings
                // would merge into one (``SpokenText`` maps marks word by word only when they match).
                let oneWord = tokens.filter { $0.start < p.end && p.offset < $0.end }.count == 1
                guard !p.isPhonemes, oneWord, p.offset >= range.lowerBound, p.end <= max(range.upperBound, token.end) else { return false }
                result[i].spoken = transform(p.spoken)
            } else {
                result.append(Pronunciation(offset: token.start, length: token.end - token.start, spoken: transform(written(token))))
            }
            return true
        }
        for frame in frames {
            // A word may run past the stretch into the punctuation after it ("Blue." in "Blue. 12").
            let words = tokens.filter { $0.start >= frame.range.lowerBound && $0.start < frame.range.upperBound }
            guard let first = words.first, let last = words.last else { continue }
            if let before = frame.before, !before.isEmpty, !say(at: first, within: frame.range, { "\(before) \($0)" }),
               let previous = tokens.last(where: { $0.end <= frame.range.lowerBound }) {
                // The first word is said in phonemes: the words go after the word before instead,
                // which is heard in the same place ("Blue. Area: [[…]]").
                say(at: previous, within: 0..<frame.range.lowerBound) { "\($0) \(before)" }
            }
            if let after = frame.after, !after.isEmpty {
                say(at: last, within: frame.range) { spoken in
                    var s = Substring(spoken)
                    while let c = s.last, ".,;:".contains(c) { s.removeLast() }  // "rooms." → "rooms, 12 rows."
                    return s + after
                }
            }
        }
        return result.sorted { $0.offset < $1.offset }
    }
}
