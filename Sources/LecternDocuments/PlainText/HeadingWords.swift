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
    /// Number words that may follow a keyword (`CHAPTER THE FIRST`, `Capítulo primero`, `Livre premier`).
    static let numbers = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh",
        "twelfth", "last", "final", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
        // es, pt, it
        "primero", "primera", "segundo", "segunda", "tercero", "tercera", "cuarto", "cuarta", "quinto", "quinta",
        "sexto", "sexta", "séptimo", "séptima", "octavo", "octava", "noveno", "novena", "décimo", "décima", "último", "última",
        "ultimo", "ultima",  // written without the accent (a text in ASCII or Latin-1 capitals: `ESCENA ULTIMA`)
        "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez",  // es cardinals: `ESCENA DOS`
        "primo", "secondo", "terzo", "quarto",
        // fr
        "premier", "première", "deuxième", "troisième", "quatrième", "cinquième", "sixième", "septième", "huitième",
        "neuvième", "dixième", "dernier", "dernière",
        // de
        "erstes", "zweites", "drittes", "viertes", "fünftes", "erster", "zweiter", "dritter", "vierter", "fünfter",
    ]
}
