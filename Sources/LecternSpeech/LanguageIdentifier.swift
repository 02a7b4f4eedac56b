internal import CCLD2
import LecternCore
import LecternText

/// Identifies the language of a paragraph with CLD2 (Debian's `libcld2`), chosen over
/// libexttextcat by measurement (docs/BENCHMARKS.md), and says whether the answer is sure enough
/// to switch voices for: reliable, on enough words, with enough evidence (``minimumScore``) and
/// clearly ahead of the next language (``minimumLead``).
///
/// CLD2 is stateless (its tables are static), so one identifier serves every thread.
public struct LanguageIdentifier: Sendable {
    /// One answer: a BCP 47 primary language tag and how sure the library is.
    public struct Guess: Sendable, Equatable {
        /// Lowercased primary subtag (`en`, `fr`, `de`).
        public var language: String
        /// The share of the text in that language, 0…100.
        public var percent: Int
        /// Whether CLD2 calls it reliable.
        public var reliable: Bool
        /// The number of words of the text (``WordTokenizer``).
        public var words: Int
        /// The share of the next best language, 0…100.
        public var secondPercent = 0
        /// CLD2's evidence for the language per kilobyte of text (its normalised score).
        public var score = 0
    }

    /// Fewer words than this are never switched (a name, an exclamation).
    public var minimumWords = 3
    /// Fewer different words (case aside) than this are never switched: "Hullo, hullo, hullo!",
    /// "Miss Du Cane—Aggie Du Cane." (CLD2 sure of Afrikaans and Kinyarwanda in a play).
    public var minimumDifferentWords = 5
    /// Below this many words a paragraph switches only when the library is clearly sure.
    public var shortWords = 8
    /// The share a short paragraph needs (measured: every correct short answer scored 95 or more).
    public var shortPercent = 95
    /// The share a longer paragraph needs.
    public var longPercent = 70
    /// A quotation inside a paragraph is identified from this many words.
    public var quotationWords = 8
    /// A run of sentences or lines inside a paragraph, with no quote marks to set it apart, is
    /// identified from this many words, clearly sure (``shortPercent``): CLD2 is sure that "What
    /// ho, Tashtego! let me hear thy hammer." (Moby-Dick) is Albanian.
    public var passageWords = 12
    /// The evidence a switch needs (CLD2's normalised score, per kilobyte of text): prose and verse
    /// in a language score 650 and more (Hugo's "Demain, dès l'aube…" 665, most prose 800–1,500),
    /// while a dialect spelt as spoken scores under 600 in the language it resembles (Yorkshire's
    /// "tha mun 'ave thi porridge afore tha goes" is sure Scottish Gaelic at 98 %, score 581), and
    /// so does a line half in the book's language ("Mein Gott! Mein Gott! So soon! so soon!", 568).
    public var minimumScore = 600
    /// How far the language must lead the next one (in shares of the text): clearly ahead.
    public var minimumLead = 50

    public init() {}

    /// The library's best guess for `text`, or nil when it knows none.
    public func guess(_ text: String) -> Guess? {
        var result = lectern_cld2_result()
        var utf8 = Array(text.utf8)
        utf8.append(0)
        utf8.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { lectern_cld2_detect($0.baseAddress, Int32(buffer.count - 1), &result) }
        }
        let code = withUnsafeBytes(of: result.code) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let language = String(code.lowercased().prefix { $0 != "-" && $0 != "_" })
        guard !language.isEmpty, language != "un", language != "xx", language != "xxx" else { return nil }
        var guess = Guess(language: language, percent: Int(result.percent), reliable: result.reliable != 0,
                          words: WordTokenizer.count(in: text))
        guess.secondPercent = Int(result.secondPercent)
        guess.score = Int(result.score)
        return guess
    }

    /// The language of `text` when the answer is confident enough to voice it by, else nil.
    public func confidentLanguage(of text: String) -> String? {
        guard let guess = guess(text), guess.reliable, guess.words >= minimumWords, guess.score >= minimumScore,
              guess.percent - guess.secondPercent >= minimumLead else { return nil }
        let units = Array(text.utf16)
        let words = WordTokenizer.tokens(in: text).map { String(decoding: units[$0.start..<$0.end], as: UTF16.self) }
        let different = Set(words.map { $0.lowercased() })
        guard different.count >= minimumDifferentWords else { return nil }
        // Mostly capitalised words are names and greetings ("Hullo, Daphne! Hullo, Nita!"), which
        // say nothing of a language (German's capitalised nouns stay well under three in five).
        if words.filter({ $0.first?.isUppercase == true }).count * 5 > words.count * 3 { return nil }
        let needed = guess.words < shortWords ? shortPercent : longPercent
        return guess.percent >= needed ? guess.language : nil
    }
}
