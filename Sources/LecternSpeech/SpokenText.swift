import LecternCore
import LecternText

/// The text the engine reads for a text with pronunciations: each hint's stretch replaced by its
/// phonemes or respelling. It maps the engine's word positions back to the original text, so
/// timings always point at what the reader sees.
struct SpokenText {
    /// What espeak-ng is given.
    let text: String
    /// Whether `text` holds `[[phonemes]]` (synthesized with espeak-ng's phoneme input on).
    let usesPhonemes: Bool
    /// Consecutive pieces of `text` and the original range each stands for.
    private let pieces: [Piece]

    private struct Piece {
        var spoken: Range<Int>
        var original: Range<Int>
        /// For a replaced stretch: the words written there (offsets relative to its start).
        var writtenWords: [WordTokenizer.Token]?
    }

    init(_ original: String, pronunciations: [Pronunciation]) {
        let units = Array(original.utf16)
        let hints = pronunciations.filter { $0.offset >= 0 && $0.end <= units.count && $0.length > 0 }.sorted { $0.offset < $1.offset }
        let usesPhonemes = hints.contains(where: \.isPhonemes)
        var spoken: [UInt16] = []
        var pieces: [Piece] = []
        func copy(_ range: Range<Int>) {
            guard !range.isEmpty else { return }
            var slice = Array(units[range])
            if usesPhonemes {
                // Outside the hints, "[[" would start phoneme input: keep it plain text.
                var i = 0
                while i + 1 < slice.count {
                    if slice[i] == 0x5B, slice[i + 1] == 0x5B { slice[i + 1] = 0x28 }  // "[[" → "[("
                    i += 1
                }
            }
            pieces.append(Piece(spoken: spoken.count..<(spoken.count + slice.count), original: range, writtenWords: nil))
            spoken += slice
        }
        var position = 0
        for hint in hints where hint.offset >= position {
            copy(position..<hint.offset)
            // Phonemes are set off by spaces, so they never fuse with the letters around them.
            let replacement = Array((hint.isPhonemes ? " \(hint.spoken) " : hint.spoken).utf16)
            let written = String(decoding: units[hint.offset..<hint.end], as: UTF16.self)
            pieces.append(Piece(spoken: spoken.count..<(spoken.count + replacement.count), original: hint.offset..<hint.end,
                                writtenWords: WordTokenizer.tokens(in: written)))
            spoken += replacement
            position = hint.end
        }
        copy(position..<units.count)
        self.text = String(decoding: spoken, as: UTF16.self)
        self.usesPhonemes = usesPhonemes
        self.pieces = pieces
    }

    /// The engine's marks (positions in ``text``) as positions in the original text. The marks
    /// inside a replaced stretch become one mark at its start, or, when there are as many of them
    /// as the stretch has words, one mark per word.
    func originalMarks(_ marks: [WordMark]) -> [WordMark] {
        guard pieces.contains(where: { $0.writtenWords != nil }) else { return marks }
        var result: [WordMark] = []
        var m = 0
        var p = 0
        while m < marks.count {
            let mark = marks[m]
            while p + 1 < pieces.count, mark.textOffset >= pieces[p].spoken.upperBound { p += 1 }
            let piece = pieces[p]
            guard let words = piece.writtenWords else {
                let offset = piece.original.lowerBound + max(0, mark.textOffset - piece.spoken.lowerBound)
                let end = min(piece.original.upperBound, offset + mark.textLength)
                result.append(WordMark(textOffset: offset, textLength: max(0, end - offset), sample: mark.sample))
                m += 1
                continue
            }
            var inside: [WordMark] = []
            while m < marks.count, marks[m].textOffset < piece.spoken.upperBound {
                inside.append(marks[m])
                m += 1
            }
            if words.count > 1, words.count == inside.count {
                for (word, mark) in zip(words, inside) {
                    result.append(WordMark(textOffset: piece.original.lowerBound + word.start, textLength: word.end - word.start, sample: mark.sample))
                }
            } else if let first = inside.first {
                result.append(WordMark(textOffset: piece.original.lowerBound, textLength: piece.original.count, sample: first.sample))
            }
        }
        return result
    }
}
