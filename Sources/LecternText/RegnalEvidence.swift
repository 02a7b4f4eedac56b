import LecternCore

/// Whether a single-letter Roman numeral (I, V, X) after a name is regnal — "James I." is "James
/// the First", "Henry V" "Henry the Fifth" — by ``SpokenRules/RegnalNames``. Two letters or more
/// ("Louis XIV") need no such evidence: after any capitalised name they are regnal.
///
/// V and X after one of the names are always regnal. The pronoun I is as common after a name
/// ("Mary I think", "Henry I am sure"), so I is regnal only with more: punctuation or a
/// possessive right after it ("James I.", "James I, King", "Charles I's head"), the end of the
/// text, a word the pronoun never precedes ("James I of England"), or a title before the name
/// ("King Charles I was beheaded"). A name with punctuation after it ("said Henry. I am") is no
/// numeral's, and ``SpokenForms`` takes a letter with a period between a title's abbreviation and
/// a name for a middle initial ("Mr. John I. Brown").
struct RegnalEvidence: Sendable {
    private let names: Set<String>
    private let titles: Set<String>
    private let then: Set<String>
    /// The length in UTF-16 units of the longest name, to pass over longer words cheaply.
    let longestName: Int

    init(_ rules: SpokenRules.RegnalNames) {
        names = Set(rules.names.map { $0.lowercased() })
        titles = Set(rules.titles.map { $0.lowercased() })
        then = Set(rules.then.map { $0.lowercased() })
        longestName = rules.names.map(\.utf16.count).max() ?? 0
    }

    /// Whether word `i - 1` may be one of the names, judged from its length alone (cheaply).
    func mayFollowName(_ tokens: [WordTokenizer.Token], _ i: Int) -> Bool {
        i > 0 && tokens[i - 1].end - tokens[i - 1].start <= longestName + 1
    }

    /// Whether word `i`, a capital I, V or X, is the regnal numeral of the name before it.
    func isRegnal(at i: Int, words: Words) -> Bool {
        guard i > 0 else { return false }
        let word = words[i], previous = words[i - 1]
        guard ["I", "V", "X"].contains(word.core), previous.isCapitalised, previous.trail.isEmpty, previous.possessive.isEmpty,
              word.lead.isEmpty, names.contains(previous.core.lowercased()),
              words.tokens[i - 1].end < words.tokens[i].start else { return false }
        guard word.core == "I" else { return true }
        if !word.possessive.isEmpty { return true }
        if let mark = word.trail.first { return ".,;:)]!'’\"”".contains(mark) }
        guard i + 1 < words.count else { return true }
        let next = words[i + 1]
        if next.lead.isEmpty, then.contains(next.core.lowercased()) { return true }
        if i >= 2 {
            let title = words[i - 2]
            return title.trail.isEmpty && title.possessive.isEmpty && titles.contains(title.core.lowercased())
        }
        return false
    }
}
