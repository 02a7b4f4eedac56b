/// Shared pieces of the subtitle exports: clock times, a sentence's words with their text, and
/// line breaking at word boundaries.
enum CueText {
    /// A word of a sentence with its text (whitespace collapsed) and times.
    struct Word {
        var text: String
        var start: Int
        var end: Int
    }

    /// `hh:mm:ss.mmm` (WebVTT) or `hh:mm:ss,mmm` (SRT).
    static func clock(_ ms: Int, separator: Character) -> String {
        let h = ms / 3_600_000, m = ms / 60_000 % 60, s = ms / 1000 % 60, f = ms % 1000
        return pad(h, 2) + ":" + pad(m, 2) + ":" + pad(s, 2) + String(separator) + pad(f, 3)
    }

    private static func pad(_ n: Int, _ width: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// The sentence's words as written, each carrying the text up to the next word (so trailing
    /// punctuation and closing quotes stay with their word), whitespace collapsed.
    static func words(of sentence: SentenceTiming, in paragraph: String) -> [Word] {
        let units = Array(paragraph.utf16)
        let end = min(units.count, sentence.offset + sentence.length)
        var result: [Word] = []
        for (i, w) in sentence.words.enumerated() {
            let from = i == 0 ? min(w.offset, sentence.offset) : w.offset
            let to = i + 1 < sentence.words.count ? sentence.words[i + 1].offset : max(end, w.offset + w.length)
            guard from < to, to <= units.count else { continue }
            let text = String(decoding: units[from..<to], as: UTF16.self)
                .split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
            result.append(Word(text: text, start: w.start, end: w.end))
        }
        return result
    }

    /// Splits words into lines of at most `width` characters (a longer word gets a line of its own).
    static func lines(_ words: [Word], width: Int) -> [[Word]] {
        var lines: [[Word]] = []
        var current: [Word] = []
        var length = 0
        for word in words {
            let added = (current.isEmpty ? 0 : 1) + word.text.count
            if !current.isEmpty, length + added > width {
                lines.append(current)
                current = []
                length = 0
            }
            length += current.isEmpty ? word.text.count : added
            current.append(word)
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
