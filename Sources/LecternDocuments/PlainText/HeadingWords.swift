/// The words that open a part or chapter heading, in the languages Lectern reads (en, fr, de, es, it,
/// nl, pt), kept as data in one place: ``HeadingCandidate`` builds its patterns from them.
/// Words are written upper-case; the title-cased form (`Capítulo`, `Scène`) is derived.
enum HeadingWords {
    /// Keywords of a chapter-level heading (`CHAPTER I`, `Capítulo II`, `Scène 3`, `Adventure IV`).
    static let chapter = [
        "CHAPTER", "CHAP\\.?", "LETTER", "STAVE", "LECTURE", "CANTO", "SECTION", "ESSAY", "SKETCH", "SCENE", "ADVENTURE",
        "CHAPITRE", "SCÈNE", "LETTRE",  // fr
        "KAPITEL", "SZENE", "AUFTRITT", "BRIEF",  // de
        "CAPÍTULO", "CAPITULO", "ESCENA", "CARTA",  // es, pt
        "CAPITOLO", "SCENA",  // it
        "HOOFDSTUK",  // nl
    ]
    /// Keywords of headings that hold chapters (`BOOK II`, `Acte I`, `Libro primero`, `Zweiter Teil` aside).
    static let part = [
        "BOOK", "PART", "VOLUME", "VOL\\.", "EPOCH", "ACT",
        "LIVRE", "PARTIE", "TOME", "ACTE",  // fr
        "BUCH", "TEIL", "BAND", "AKT", "AUFZUG",  // de
        "LIBRO", "PARTE", "TOMO", "ACTO",  // es, it, pt
        "ATTO",  // it
        "BOEK", "DEEL",  // nl
    ]
    /// The keywords of a play's divisions (acts and scenes) in any of these languages.
    static let playDivisions: Set<String> = [
        "ACT", "SCENE", "ACTE", "SCÈNE", "AKT", "AUFZUG", "SZENE", "AUFTRITT", "ACTO", "ESCENA", "ATTO", "SCENA",
    ]
    /// Number words that may follow a keyword (`CHAPTER THE FIRST`, `CANTO THE SEVENTEENTH`, `Capítulo primero`,
    /// `Livre premier`): every ordinal of ``OrdinalWords``, the words for the last, and cardinals.
    static let numbers = OrdinalWords.words + [
        "last", "final", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
        "último", "última", "ultimo", "ultima",  // es: `ESCENA ULTIMA` (written without the accent in ASCII capitals)
        "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez",  // es cardinals: `ESCENA DOS`
        "dernier", "dernière",  // fr
    ]
}
