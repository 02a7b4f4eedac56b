/// The rules of one language for reading text as a careful narrator says it (from
/// `Config/spoken/LANG.yml`; see ``SpokenForms``).
public struct SpokenRules: Sendable, Equatable {
    /// An abbreviation and what is said for it, by the context it is in; the first that applies
    /// of `beforeNumber`, `afterNumber`, `beforeName`, `afterName`, `always` is said (none: as written).
    public struct Abbreviation: Sendable, Equatable {
        /// As written in the rules (matched in any case; parts separated by spaces also match
        /// written together: `z. B.` matches `z.B.`).
        public var written: String
        public var always: String?
        /// When the next word starts with a capital (and is not one of ``SpokenRules/notNames``).
        public var beforeName: String?
        /// When the word before starts with a capital.
        public var afterName: String?
        /// When the next word is a number (digits or a Roman numeral).
        public var beforeNumber: String?
        /// When the word before is a number, or an ordinal written with one (`XIXe s.` → siècle).
        public var afterNumber: String?

        public init(written: String, always: String? = nil, beforeName: String? = nil, afterName: String? = nil, beforeNumber: String? = nil) {
            self.written = written
            self.always = always
            self.beforeName = beforeName
            self.afterName = afterName
            self.beforeNumber = beforeNumber
        }
    }

    /// The primary language subtag the rules are for (`en`).
    public var language: String
    public var abbreviations: [Abbreviation] = []
    /// Abbreviations whose period may also end a sentence ("etc."): before a capital, it does.
    public var mayEndSentence: [String] = []
    /// Words after which a Roman numeral is a cardinal ("Chapter XIV" → "Chapter 14").
    public var cardinalWords: [String] = []
    /// Ordinal words, for 1 first ("First", "Second", …); `{ordinal}` in the templates.
    public var ordinals: [String] = []
    /// What is said before a note read away from its reference: a template with `{n}`, its
    /// label ("Note {n}." → "Note 3.").
    public var note: String?
    /// How a Roman numeral after a name is said: a template with `{ordinal}` and `{n}` (digits).
    public var regnal: String?
    /// Regnal forms for particular numbers, over ``regnal`` (French: 1 → "premier").
    public var regnalByNumber: [Int: String] = [:]
    /// Endings that make a Roman numeral an ordinal wherever it stands (French `XIXe`, `Ier`),
    /// with the template said for it.
    public var ordinalSuffixes: [String: String] = [:]
    /// Names after which a single-letter numeral (I, V, X) is regnal too ("James I.", "Henry V").
    public var regnalNames: RegnalNames?
    /// Capitalised words that are not names (no regnal numeral after them, no "Saint" before them).
    public var notNames: [String] = []
    /// How a rating is said: 1…5 stars (`*`, `★`) right after a name (`Hôtel du Port **`), by
    /// number, `0` standing for `other` (`{n}` is the count); none: the stars are a pause.
    public var stars: [Int: String] = [:]
    /// Characters whose runs, standing alone between words, are read as ``pause``.
    public var pauseSymbols: String = ""
    public var pause: String = " "
    /// The words for "." and "@" in a domain or e-mail address read aloud.
    public var urlDot: String = "dot"
    public var urlAt: String = "at"
    /// How years are read where a year is meant (nil: as numbers, espeak-ng's way).
    public var years: Years?
    /// How sums of money are read (nil: as the engine reads them).
    public var money: Money?

    /// How chemical formulas (H2SO4, CO2, NaCl) are read (nil: as the engine reads them).
    public var formulas: Formulas?

    /// The names after which a single-letter Roman numeral is regnal (`regnal_names:` in
    /// `Config/spoken/LANG.yml`): I, V and X only after one of `names`; the pronoun I needs more
    /// (see ``SpokenForms``).
    public struct RegnalNames: Sendable, Equatable {
        /// Given names of kings, queens and popes, compared in lower case.
        public var names: [String] = []
        /// Titles before such a name ("King", "Pope"): with one, "I" before running text is regnal.
        public var titles: [String] = []
        /// Words the pronoun I never precedes ("of": "James I of England"), compared in lower case.
        public var then: [String] = []

        public init() {}
    }

    /// How chemical formulas are read (`formulas:` in `Config/spoken/LANG.yml`): letter by
    /// letter, numbers as numbers ("H 2 S O 4").
    public struct Formulas: Sendable, Equatable {
        /// A letter's spoken form where the engine would not say its name (English "A" alone is the article).
        public var letters: [String: String] = [:]

        public init() {}
    }

    /// How sums of money are read (`money:` in `Config/spoken/LANG.yml`).
    public struct Money: Sendable, Equatable {
        /// Signs written before an amount ("£"), with the unit's singular and plural.
        public var before: [String: [String]] = [:]
        /// Units written right after an amount ("s.", "d.", "l."), in a sum that starts with a sign,
        /// or in one of several of them, largest first ("3l. 10s.", "2s. 6d."); the period may be left out.
        public var after: [String: [String]] = [:]
        /// `after`'s units, largest first, as the rules list them.
        public var afterOrder: [String] = []
        /// Units of `after` that make a sum alone, with their period and no sign ("6d.", "1s.", "100l.").
        public var alone: [String] = []
        /// Words before which a lone amount is no sum ("the 3d." is the third; "the 60s." a decade).
        public var notAfter: [String] = []
        /// Units that are words of their own after an amount ("10 fr.").
        public var words: [String: [String]] = [:]
        /// Units that are words of their own only right after a sum ("10 fr. 50 c.").
        public var wordsAfterSum: [String: [String]] = [:]
        /// Templates: {n} the amount, {unit} its unit, {f} the fraction ("5 dollars 50").
        public var amount = "{n} {unit}"
        public var fraction = "{n} {unit} {f}"
        /// The first UTF-16 unit of each sign.
        public var signUnits: Set<UInt16> { Set(before.keys.compactMap { $0.utf16.first }) }

        public init() {}
    }

    /// How a four-digit year is read (`years:` in `Config/spoken/LANG.yml`): in two halves,
    /// "18 96", where the text shows it is a year.
    public struct Years: Sendable, Equatable {
        /// The years read so (others are numbers); `asNumbers` are left to the engine within it.
        public var range: ClosedRange<Int> = 1000...2099
        public var asNumbers: ClosedRange<Int>?
        /// Words after which a number is a year ("in", "since"), compared in lower case.
        public var after: [String] = []
        /// Words that make the number before them a year ("A.D.", "BC"), compared without periods, in lower case.
        public var before: [String] = []
        /// Month names and abbreviations: a number within three words after one is a year ("May 3, 1896").
        public var months: [String] = []
        /// Words between the two years of a range ("1890 to 1896"): the second is a year too.
        public var between: [String] = []
        /// What is said between the years of a range written with a dash ("1445-1459").
        public var rangeWord: String = "to"
        /// Templates with {high} (the first two digits) and {low} (the last two, without a leading zero).
        public var hundred: String = "{high} hundred"
        public var oh: String = "{high} oh {low}"
        public var other: String = "{high} {low}"
        /// Decades ("the 1890s"), by their tens digit 0…9: "{high} hundreds", "{high} nineties".
        public var decades: [String] = []

        public init() {}
    }

    public init(language: String) {
        self.language = language
    }
}
