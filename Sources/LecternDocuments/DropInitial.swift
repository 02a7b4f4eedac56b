import Foundation

/// A drop cap set as an image: the first letter of a paragraph drawn as a picture whose alt text
/// is the letter (`<img alt="F">` then `<p>rom the extreme West …`), as Project Gutenberg's
/// illustrated books do. The image is left out as images are, but its letter is part of the text:
/// a narrator reads "From the extreme West", not "rom the extreme West".
///
/// The letter joins the paragraph's first word when the text runs straight on from it and the
/// document uses the joined word more than the word without it ("rom" is no word, "from" is) —
/// or as much, when the letter is no word of the document; else it is a word of its own, as "A"
/// is before "wonderful" (no "awonderful").
struct DropInitial {
    /// The letter the image shows.
    let letter: String

    /// A drop cap's alt text: one capital letter.
    init?(alt: String) {
        let letter = alt.trimmingCharacters(in: .whitespacesAndNewlines)
        guard letter.count == 1, let first = letter.first, first.isLetter, first.isUppercase else { return nil }
        self.letter = letter
    }

    /// What is read before `text`, the first text after the image: the letter, with a space when
    /// it is a word of its own — or nil when the text is no continuation (it does not start with
    /// a small letter, as a drop cap's paragraph does).
    func lead(for text: String, vocabulary: [String: Int]) -> String? {
        let trimmed = text.drop { $0.isWhitespace }
        guard let first = trimmed.first, first.isLetter, first.isLowercase else { return nil }
        let word = String(trimmed.prefix { $0.isLetter }).lowercased()
        let joined = (letter + word).lowercased()
        guard trimmed.startIndex == text.startIndex else { return letter + " " }
        // The paragraph's own fragment is one of the document's uses of `word`.
        let (joinedUses, wordUses) = (vocabulary[joined, default: 0], vocabulary[word, default: 0] - 1)
        let letterIsAWord = vocabulary[letter.lowercased(), default: 0] >= 3
        return joinedUses > wordUses || (joinedUses == wordUses && !letterIsAWord) ? letter : letter + " "
    }

    /// How often each word (lowercased, letters only) stands in `text`.
    static func vocabulary(_ text: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        for token in text.split(whereSeparator: { !$0.isLetter && $0 != "'" && $0 != "’" }) {
            let word = token.trimmingCharacters(in: CharacterSet(charactersIn: "'’"))
            if !word.isEmpty { counts[word.lowercased(), default: 0] += 1 }
        }
        return counts
    }
}
