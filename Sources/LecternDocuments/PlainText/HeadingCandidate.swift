import Foundation
import LecternCore
import LecternText

/// A line that may open a part or chapter heading, judged on its own: `CHAPTER I.`,
/// `CHAPTER I: DISCUSSION AND BED`, `EPOCH THE FIRST, 1703.`, `PREFACE`, `DEDICATION`, a lone `XIV.` or `12.`,
/// or (as a fallback, when a book has nothing else) a short upper-case line.
/// Whether it really is a heading also depends on its neighbours; `StructureScanner` decides that.
struct HeadingCandidate: Equatable {
    enum Kind: Equatable {
        /// CHAPTER, BOOK, PART … followed by a number; `isPart` for the keywords that hold chapters.
        case keyword(isPart: Bool)
        /// PREFACE, INTRODUCTION, EPILOGUE …
        case standalone
        /// A line that is only a number, with its value.
        case bareNumber(Int)
        /// A number and a short title alone on a line (`I. A SCANDAL IN BOHEMIA`), with its value.
        case numberedTitle(Int)
        /// A capital letter alone on a line (a dictionary's `A`, `B` …), with its place in the alphabet.
        case letter(Int)
        /// An isolated short upper-case line.
        case fallback
    }

    var kind: Kind
    /// The line, trimmed and collapsed.
    var text: String
    /// True when words follow the number on the same line (`CHAPTER I. The Widow`).
    var hasTitle: Bool
    /// The title a contents list gives a heading that shows only its number (``ListedChapters``).
    var listedTitle: String?

    init(kind: Kind, text: String, hasTitle: Bool, listedTitle: String? = nil) {
        self.kind = kind
        self.text = text
        self.hasTitle = hasTitle
        self.listedTitle = listedTitle
    }

    var isPart: Bool { kind == .keyword(isPart: true) }

    /// A play's act or scene (`ACT I.`, `THE FIRST ACT`, `Scene 2`).
    var isPlayDivision: Bool {
        guard case .keyword = kind else { return false }
        return TextLines.words(text).prefix(3).contains { HeadingWords.playDivisions.contains($0.uppercased().trimmingCharacters(in: .punctuationCharacters)) }
    }

    /// A lone number or a numbered title: headings whose numbers must run on.
    var number: Int? {
        switch kind {
        case .bareNumber(let n), .numberedTitle(let n): n
        default: nil
        }
    }

    /// Whether two candidates are of the same kind, whatever their numbers.
    func isSameKind(as other: HeadingCandidate) -> Bool {
        switch (kind, other.kind) {
        case (.bareNumber, .bareNumber), (.numberedTitle, .numberedTitle), (.letter, .letter): true
        default: kind == other.kind
        }
    }

    static let numberWords = HeadingWords.numbers.joined(separator: "|")
    static let number = #"(?:[IVXLCDM]+|\d{1,3}|(?i:(?:the\s+)?(?:"# + numberWords + #")))"#
    static let chapterWords = HeadingWords.chapter.joined(separator: "|")
    static let partWords = HeadingWords.part.joined(separator: "|")
    static let keyword = LinePattern(
        #"^(?:("# + partWords + #")|("# + chapterWords + #")|("# + titleCased(partWords) + #")|("# + titleCased(chapterWords)
            + #"))\s+"# + number + #"(?![\w'’])(.*)$"#)
    /// The ordinals that may stand before a keyword, in any language ``OrdinalWords`` knows.
    static let ordinalWords = (OrdinalWords.words + ["last", "final", "dernier", "dernière", "último", "última"]).map { $0.uppercased() }
        .joined(separator: "|")
    /// The ordinal before the keyword: `THE FIRST ACT`, `Second Book`, `Erster Teil`, `Twenty-first Chapter`.
    static let ordinalKeyword = LinePattern(
        #"^(?:THE\s+)?(?:"# + ordinalWords + #")\s+(?:("# + partWords + #")|("# + chapterWords + #"))[.:]?$"#, caseInsensitive: true)
    /// A keyword, `THE` and one word, in capitals (`CANTO THE TWELTH.`): the shape of an ordinal heading.
    static let misspeltOrdinalKeyword = LinePattern(#"^(?:("# + partWords + #")|("# + chapterWords + #"))\s+THE\s+([A-Z]{6,})\.?$"#)
    /// The words of a heading that stands unnumbered (`PREFACE`); a dedication that is a letter by name
    /// (`DEDICATORY EPISTLE`) is one, as `DEDICATION` over a letter is.
    static let standaloneWords = "PREFACE|INTRODUCTION|INTRODUCTORY|PROLOGUE|EPILOGUE|APPENDIX|FOREWORD|AFTERWORD|POSTSCRIPT|CONCLUSION|DEDICATION"
        + "|EPISTLE DEDICATORY|DEDICATORY EPISTLE"
    static let standalone = LinePattern(
        #"^(?:THE\s+|(?:THE\s+)?(?:AUTHOR|EDITOR|TRANSLATOR)['’]?S\s+)?(?:"# + standaloneWords + #")(?:\s+(?:TO\s+[A-Z ,'’-]+|[IVXLC]+|\d{1,2}|[A-Z]))?[.:]?$"#
            + #"|^(?:The\s+|(?:The\s+)?(?:Author|Editor|Translator)['’]?s\s+)?(?:"# + titleCased(standaloneWords)
            + #")(?:\s+(?:to\s+[A-Za-z ,'’-]+|[IVXLC]+|\d{1,2}|[A-Z]))?[.:]?$"#)
    /// The author's or editor's own notice set before (or after) the book, headed as such: `NOTE TO THE
    /// THIRD EDITION`, `A Note on the Text`, `ADVERTISEMENT BY THE AUTHORESS, TO NORTHANGER ABBEY` (the
    /// author's notice of old, not a publisher's advertisements, which are titled by no `BY`/`TO`).
    static let matterNote = LinePattern(
        #"^(?:(?:A\s+)?NOTE\s+(?:TO\s+THE\s+(?:[A-Z]+\s+){1,3}EDITION|ON\s+THE\s+TEXT)|ADVERTISEMENT\s+(?:BY|TO|FROM)\s+THE\s+[A-Z][A-Z ,'’-]*)[.:]?$"#,
        caseInsensitive: true)
    /// The upper-cased first words a keyword or standalone heading can start with.
    static let firstWords: Set<String> = Set(
        (chapterWords + "|" + partWords + "|" + standaloneWords).replacingOccurrences(of: "\\.?", with: "")
            .replacingOccurrences(of: "\\.", with: "").split(separator: "|").map { String($0.prefix { $0 != " " }) }
            + ordinalWords.split(separator: "|").map { String($0.prefix { $0 != " " }) }
            + ["THE", "NOTE", "ADVERTISEMENT", "AUTHOR'S", "AUTHOR’S", "AUTHORS", "EDITOR'S", "EDITOR’S", "EDITORS", "TRANSLATOR'S", "TRANSLATOR’S", "TRANSLATORS"])
    static let numbered = LinePattern(#"^([IVXLCDM]+|\d{1,3})\.\s+(\S.*)$"#)
    static let bare = LinePattern(#"^([IVXLCDM]+|\d{1,3})\.?$"#)
    static let trailingPageNumber = LinePattern(#"\S\s{2,}(\d{1,4}|[ivxlcdm]{1,7})\.?$"#)

    /// A note marker closing a line: `SCENE I[1]`, `CHAPTER II.{3}`.
    static let trailingMarker = LinePattern(#"\s*(?:\[(?:\d{1,3}|\*|†)\]|\{\d{1,3}\})$"#)
    /// A lone numeral set between dashes, `-I-`, `— XII —`: the dashes are ornament.
    static let dashedNumeral = LinePattern(#"^[-–—]+\s*([IVXLCDM]+|\d{1,3})\.?\s*[-–—]+$"#)

    /// The line without the ornament of a dashed numeral (`-IV-` is `IV`).
    static func withoutOrnaments(_ line: String) -> String {
        guard line.first == "-" || line.first == "–" || line.first == "—", line.count <= 16 else { return line }
        return dashedNumeral.capture(1, in: line) ?? line
    }

    static func titleCased(_ words: String) -> String {
        words.split(separator: "|").map { alternative in
            alternative.split(separator: " ").map { w in w.prefix(1) + w.dropFirst().lowercased() }.joined(separator: " ")
        }.joined(separator: "|")
    }

    /// The candidate this line would be, if any. `fallback` allows short upper-case lines; `marked`: the format
    /// marks the line as a heading, so a long title after the keyword (a chapter's argument of thirty words,
    /// on one line) is no paragraph.
    static func of(_ line: String, fallback: Bool = false, marked: Bool = false) -> HeadingCandidate? {
        let raw = withoutOrnaments(TextLines.trim(line))
        guard let first = raw.unicodeScalars.first, raw.utf8.count <= (marked ? 800 : 400) else { return nil }
        // A play's act or scene may carry its setting on its line (an HTML paragraph `Scene II. Enter
        // King and Queen weeping. They pace up and down, …`): twice the length of other headings.
        if raw.count > (marked ? 400 : 160), marked || raw.count > 320 || !opensWithPlayDivision(raw) { return nil }
        // Every candidate starts with a capital letter or a digit, and (but for the fallback) with a heading
        // word or a number: checked before any regular expression runs, since most lines are running text.
        if !(first.properties.isUppercase || ("0"..."9").contains(first)) { return nil }
        if let value = letterValue(raw), RomanNumeral.value(of: String(raw.prefix(1))) == nil {
            return HeadingCandidate(kind: .letter(value), text: raw, hasTitle: false)
        }
        if !fallback {
            var word = raw.prefix { !$0.isWhitespace }.uppercased().trimmingCharacters(in: CharacterSet(charactersIn: ".:"))
            // `A NOTE ON THE TEXT`: the article first.
            if word == "A" { word = raw.dropFirst().drop { $0.isWhitespace }.prefix { !$0.isWhitespace }.uppercased() }
            let isNumber = word.allSatisfy { "IVXLCDM0123456789".contains($0) }
            if !isNumber, !firstWords.contains(word) { return nil }
        }
        // A contents entry (`CHAPTER I. The Widow   1`) is not a heading.
        if trailingPageNumber.matches(raw) { return nil }
        var text = TextLines.collapse(raw)
        // A note's marker after a heading (`SCENE I[1]`, `CHAPTER II.{3}`) is silent, as in running text.
        if text.last == "]" || text.last == "}", let m = trailingMarker.firstMatch(text), m.range.location > 0 {
            text = (text as NSString).substring(to: m.range.location)
        }
        if let m = ordinalKeyword.firstMatch(text), TextLines.isUpperCase(text) || text.first?.isUppercase == true {
            return HeadingCandidate(kind: .keyword(isPart: m.range(at: 1).location != NSNotFound), text: text, hasTitle: false)
        }
        // `CANTO THE TWELTH.` between `CANTO THE ELEVENTH.` and `CANTO THE THIRTEENTH.`: a keyword and `THE` over an
        // ordinal misspelt by one letter, alone on its line in capitals, is the series' heading all the same.
        if let m = misspeltOrdinalKeyword.firstMatch(text), let word = misspeltOrdinalKeyword.capture(3, in: text),
           OrdinalWords.misspeltValue(of: word) != nil {
            return HeadingCandidate(kind: .keyword(isPart: m.range(at: 1).location != NSNotFound), text: text, hasTitle: false)
        }
        if let m = keyword.firstMatch(text) {
            let isPart = m.range(at: 1).location != NSNotFound || m.range(at: 3).location != NSNotFound
            let rest = keyword.capture(5, in: text) ?? ""
            let titleWords = TextLines.words(rest).filter { $0.contains(where: \.isLetter) }
            // A long line after the number (a paragraph’s worth) is running text, not a title; so is one going on in
            // lower case (`Part 3 is short.`).
            if titleWords.count > (marked ? 60 : opensWithPlayDivision(text) ? 48 : 24) || titleWords.first?.first?.isLowercase == true { return nil }
            return HeadingCandidate(kind: .keyword(isPart: isPart), text: text, hasTitle: !titleWords.isEmpty)
        }
        if text.count <= 60, standalone.matches(text) || matterNote.matches(text) {
            return HeadingCandidate(kind: .standalone, text: text, hasTitle: false)
        }
        if let n = bare.capture(1, in: text), let value = RomanNumeral.value(of: n) ?? Int(n), value > 0 {
            return HeadingCandidate(kind: .bareNumber(value), text: text, hasTitle: false)
        }
        if text.count <= 60, let m = numbered.firstMatch(text) {
            let ns = text as NSString
            let n = ns.substring(with: m.range(at: 1))
            let title = ns.substring(with: m.range(at: 2))
            // A title in capitals may stand in quotes (`XI. ‘LIKE SUMMER TEMPESTS CAME HIS TEARS’`).
            let unquoted = TextLines.isUpperCase(title) ? title.trimmingCharacters(in: CharacterSet(charactersIn: "\"“”‘’'")) : title
            if let value = RomanNumeral.value(of: n) ?? Int(n), value > 0, isTitleLike([unquoted]),
               TextLines.isUpperCase(title) || !title.hasSuffix(".") || isCapitalisedPhrase(title) {
                return HeadingCandidate(kind: .numberedTitle(value), text: text, hasTitle: true)
            }
        }
        if fallback, text.count <= 50, TextLines.isUpperCase(text), TextLines.words(text).count <= 8,
           !text.hasPrefix("["), text.contains(where: \.isLetter) {
            return HeadingCandidate(kind: .fallback, text: text, hasTitle: false)
        }
        return nil
    }

    /// Whether a line opens with an act's or a scene's keyword (`Scene II.`, `ACTO`).
    static func opensWithPlayDivision(_ line: String) -> Bool {
        HeadingWords.playDivisions.contains(line.prefix { !$0.isWhitespace }.uppercased().trimmingCharacters(in: .punctuationCharacters))
    }

    /// The place in the alphabet of a line that is one capital letter (`B`, `Q.`), else nil.
    static func letterValue(_ line: String) -> Int? {
        let t = line.hasSuffix(".") ? line.dropLast() : Substring(line)
        guard t.count == 1, let c = t.unicodeScalars.first, ("A"..."Z").contains(c) else { return nil }
        return Int(c.value) - 64
    }

    /// Two to four words, each capitalised (`First Day.`, `The Old House.`): a title, though it ends with a
    /// full stop, where a sentence (`He went home.`) has words in lower case.
    static func isCapitalisedPhrase(_ title: String) -> Bool {
        let words = TextLines.words(title).filter { $0.contains(where: \.isLetter) }
        return (2...4).contains(words.count) && words.allSatisfy { $0.first(where: \.isLetter)?.isUppercase == true }
    }

    /// Whether a short block of lines reads as a title (`Down the Rabbit-Hole`, `THE ORIGIN OF MUSIC`,
    /// `The Widow and her Child.`, `1703.`) rather than the first sentence of the text: upper-case, or
    /// at least half of its longer words capitalised.
    static func isTitleLike(_ lines: [String]) -> Bool {
        guard !lines.isEmpty, lines.count <= 2 else { return false }
        for line in lines {
            let t = TextLines.trim(line)
            if t.count > 60 || t.isEmpty { return false }
            if let f = t.first, "[{\"“‘'(".contains(f) { return false }
            if t.hasPrefix("_\"") || t.hasPrefix("_“") { return false }
            if trailingPageNumber.matches(t) { return false }
        }
        let text = lines.joined(separator: " ")
        let words = TextLines.words(text)
        if words.count > 14 { return false }
        if TextLines.isUpperCase(text) { return true }
        let long = words.map { $0.filter(\.isLetter) }.filter { $0.count >= 4 }
        if long.isEmpty {
            // `1703.`, `The Cat`; but not `Yes.` or `One.`, which open a chapter's text as often as they title it.
            let lettered = words.filter { $0.contains(where: \.isLetter) }
            return lettered.isEmpty || (lettered.count >= 2 && lettered.allSatisfy { $0.first(where: \.isLetter)?.isUppercase == true })
        }
        let capitalised = long.filter { $0.first?.isUppercase == true }.count
        return capitalised * 2 >= long.count
    }
}
