import LecternCore
import LecternText

/// Decides, for `language_switching: detect`, which passages of a chapter are read in another
/// language than the book's: whole blocks, runs of short blocks judged together (a stanza's
/// lines, a song), and parts of a block (a quotation, a run of sentences or lines).
///
/// Only text whose language is not declared is judged: a block with no `lang`, or whose `lang` is
/// the book's own (a document root's `<html lang>` or an EPUB's `dc:language` flowing down, which
/// is a default, not a certainty). A block or span declared in another language keeps it.
///
/// Against false positives (a name, "Yes.", "Hullo, Sam!"): ``LanguageIdentifier`` must be sure
/// (reliable, 3+ words and 5+ different words, clearly sure under 8 words); short blocks that are
/// not sure alone are judged together, by the same rule, with their neighbours that lean the same
/// way; a quotation inside a block needs 8+ words, a run of sentences or lines 12+ clearly sure; a language no voice speaks (the manifest's `languages` or an installed one) is
/// never detected.
struct PassageLanguages {
    var identifier: LanguageIdentifier
    /// The book's primary language subtag (`en`), or nil.
    var bookLanguage: String?
    /// Whether some voice speaks a primary language tag.
    var speaks: (String) -> Bool

    /// Which way a piece of text leans: to a language, or either way (too short to tell).
    enum Lean: Equatable { case to(String), either }

    /// The language each block is read in when it is found in another language than the book's,
    /// else nil; `texts[i]` nil is a block whose language is declared (not judged).
    func blockLanguages(_ texts: [String?]) -> [String?] {
        let guesses = texts.map { $0.flatMap(identifier.guess) }
        var result: [String?] = texts.indices.map { i in
            guard let text = texts[i], let found = identifier.confidentLanguage(of: text), isForeign(found, to: bookLanguage) else { return nil }
            return found
        }
        // A block that leans to a language without being sure of it alone, short enough to be a
        // line, joins its neighbours that lean (or are found) the same way; a short line the
        // library has no sure guess for joins them when it lies between two. A line of names or
        // a heading (every word capitalised: "Von Rettenmayer.") joins nothing.
        func lean(_ i: Int) -> Lean? {
            if let found = result[i] { return .to(found) }
            guard let text = texts[i], !Self.isTitleCase(text) else { return nil }
            guard let guess = guesses[i] else { return WordTokenizer.count(in: text) < identifier.shortWords ? .either : nil }
            guard guess.words < identifier.shortWords else { return nil }
            if !guess.reliable { return .either }
            return isForeign(guess.language, to: bookLanguage) ? .to(guess.language) : nil
        }
        var i = 0
        while i < texts.count {
            guard case .to(let language)? = lean(i) else { i += 1; continue }
            var end = i + 1
            var last = i
            while end < texts.count, let next = lean(end), next == .to(language) || next == .either {
                if next == .to(language) { last = end }
                end += 1
            }
            let run = i..<(last + 1)
            if run.count > 1, run.contains(where: { result[$0] == nil }) {
                let joined = run.compactMap { texts[$0] }.joined(separator: "\n")
                if identifier.confidentLanguage(of: joined) == language, speaks(language) {
                    for j in run { result[j] = language }
                }
            }
            i = last + 1
        }
        return result
    }

    /// The parts of `text` (a block read in `language`) found in another language: quotations of
    /// ``LanguageIdentifier/quotationWords`` words or more, and runs of sentences or lines that
    /// lean to one language and together are clearly in it (``LanguageIdentifier/passageWords``
    /// words or more); none overlaps `declared` or another.
    func spans(in text: String, language: String?, declared: [LanguageSpan]) -> [LanguageSpan] {
        let units = Array(text.utf16)
        var taken = declared.map { $0.offset..<($0.offset + $0.length) }
        func free(_ range: Range<Int>) -> Bool { !taken.contains { $0.overlaps(range) } }
        func string(_ range: Range<Int>) -> String { String(decoding: units[range], as: UTF16.self) }
        var found: [LanguageSpan] = []
        for range in Quotations.ranges(in: text) where free(range) {
            let quoted = string(range)
            guard WordTokenizer.count(in: quoted) >= identifier.quotationWords, let other = identifier.confidentLanguage(of: quoted),
                  isForeign(other, to: language) else { continue }
            // A quotation quoting another (“‘L’homme c’est rien—l’œuvre c’est tout,’ as Gustave
            // Flaubert wrote to George Sand.”) is in that language only where the inner one is,
            // when the words around it lean to the paragraph's.
            var spoken = range
            if let inner = Self.innerQuotation(in: range, of: units), identifier.guess(string(inner))?.language == other {
                let around = string(range.lowerBound..<inner.lowerBound) + " " + string(inner.upperBound..<range.upperBound)
                if let guess = identifier.guess(around), guess.reliable, guess.language == language.map(Segmenter.primary) { spoken = inner }
            }
            found.append(LanguageSpan(offset: spoken.lowerBound, length: spoken.count, language: other))
            taken.append(range)
        }
        // Sentences, and lines within them (verse quoted in a paragraph), each leaning to a language.
        let pieces = SentenceSplitter.sentences(in: text).flatMap { Self.lines(of: $0, in: units) }
        guard pieces.count > 1 else { return found.sorted { $0.offset < $1.offset } }
        // A short piece the library has no sure guess for joins a run it lies inside.
        let leans: [Lean?] = pieces.map { piece in
            let text = string(piece)
            guard let guess = identifier.guess(text) else { return WordTokenizer.count(in: text) < identifier.shortWords ? .either : nil }
            if !guess.reliable, guess.words < identifier.shortWords { return .either }
            return isForeign(guess.language, to: language) ? .to(guess.language) : nil
        }
        var i = 0
        while i < pieces.count {
            guard case .to(let other)? = leans[i] else { i += 1; continue }
            var end = i + 1
            var last = i
            while end < pieces.count, let next = leans[end], next == .to(other) || next == .either {
                if next == .to(other) { last = end }
                end += 1
            }
            let range = pieces[i].lowerBound..<pieces[last].upperBound
            let passage = string(range)
            if free(range), WordTokenizer.count(in: passage) >= identifier.passageWords,
               identifier.confidentLanguage(of: passage) == other, (identifier.guess(passage)?.percent ?? 0) >= identifier.shortPercent,
               speaks(other) {
                found.append(LanguageSpan(offset: range.lowerBound, length: range.count, language: other))
                taken.append(range)
            }
            i = last + 1
        }
        return found.sorted { $0.offset < $1.offset }
    }

    /// Whether every word of `text` starts with a capital letter (names, a speaker's label, a heading).
    static func isTitleCase(_ text: String) -> Bool {
        let units = Array(text.utf16)
        return WordTokenizer.tokens(in: text).allSatisfy { token in
            String(decoding: units[token.start..<token.end], as: UTF16.self).first { $0.isLetter }?.isUppercase ?? true
        }
    }

    /// The first quotation in single marks (`‘…’`) inside `range`, marks included: a closing mark
    /// is one no letter follows (`’` inside `c’est` is an apostrophe).
    static func innerQuotation(in range: Range<Int>, of units: [UInt16]) -> Range<Int>? {
        guard let open = range.first(where: { units[$0] == 0x2018 }) else { return nil }
        func isLetter(_ i: Int) -> Bool {
            i < units.count && Character(Unicode.Scalar(units[i]) ?? " ").isLetter
        }
        guard let close = ((open + 1)..<range.upperBound).first(where: { units[$0] == 0x2019 && !isLetter($0 + 1) }) else { return nil }
        return open..<(close + 1)
    }

    /// `range` cut at its line breaks, each line trimmed; blank lines dropped.
    static func lines(of range: Range<Int>, in units: [UInt16]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var start = range.lowerBound
        func add(_ end: Int) {
            var s = start, e = end
            while s < e, units[s] == 32 || units[s] == 9 || units[s] == 10 || units[s] == 13 { s += 1 }
            while e > s, units[e - 1] == 32 || units[e - 1] == 9 || units[e - 1] == 10 || units[e - 1] == 13 { e -= 1 }
            if s < e { result.append(s..<e) }
        }
        for i in range where units[i] == 10 {
            add(i)
            start = i + 1
        }
        add(range.upperBound)
        return result
    }

    /// Whether `found` (a primary subtag) is another language than `language` and a voice speaks it.
    private func isForeign(_ found: String, to language: String?) -> Bool {
        found != language.map(Segmenter.primary) && speaks(found)
    }
}
