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

    /// The words cut into cues that fit `lines` lines of `width` characters and, when given,
    /// `maxDuration` ms from the cue's first word's start to its last word's end: greedily, but
    /// ending a cue after a word that ends a sentence or clause when one lies in the cue's second
    /// half (a word too long for one cue gets a cue of its own).
    static func pieces(_ words: [Word], width: Int, lines: Int, maxDuration: Int? = nil) -> [[Word]] {
        var pieces: [[Word]] = []
        var rest = words[...]
        while !rest.isEmpty {
            let start = rest[rest.startIndex].start
            var fit = 0
            while fit < rest.count, CueText.lines(Array(rest.prefix(fit + 1)), width: width).count <= lines,
                  maxDuration.map({ rest[rest.startIndex + fit].end - start <= $0 }) ?? true {
                fit += 1
            }
            fit = max(fit, 1)
            if fit < rest.count {
                let candidates = (fit / 2..<fit).reversed()
                // The last candidate whose text ends with one of `marks`, after any of `closing`.
                let ending = { (marks: String, closing: String) in
                    candidates.first { i in rest[rest.startIndex + i].text.last { !closing.contains($0) }.map { marks.contains($0) } == true }
                }
                let sentenceEnd = maxDuration == nil ? nil : ending(".!?…;:", "\"'”’»)]")
                if let cut = sentenceEnd ?? ending(",;:.!?)—–", "") {
                    fit = cut + 1
                }
            }
            pieces.append(Array(rest.prefix(fit)))
            rest = rest.dropFirst(fit)
        }
        return pieces
    }

    /// Splits words into at most two lines of at most `width` characters, as even as possible
    /// (for captions: a short second line reads worse than two of similar length).
    static func balancedLines(_ words: [Word], width: Int) -> [[Word]] {
        let greedy = lines(words, width: width)
        guard greedy.count == 2 else { return greedy }
        var best = greedy, bestLongest = greedy.map(length).max() ?? 0
        for split in 1..<words.count {
            let top = Array(words[..<split]), bottom = Array(words[split...])
            let longest = max(length(top), length(bottom))
            if longest <= width, longest < bestLongest { best = [top, bottom]; bestLongest = longest }
        }
        return best
    }

    /// A line's length in characters: its words joined by spaces.
    static func length(_ line: [Word]) -> Int {
        line.reduce(0) { $0 + $1.text.count } + max(0, line.count - 1)
    }
}
