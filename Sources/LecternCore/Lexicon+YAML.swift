import Foundation
import Yams

extension Lexicon {
    /// Reads a lexicon file in Lectern's YAML form:
    ///
    /// ```yaml
    /// language: en                 # optional: the lexicon applies to text in this language
    /// words:
    ///   Hermione: her-my-oh-nee    # a respelling
    ///   Lectern: "[[l'Ekt3:n]]"    # espeak-ng phonemes
    ///   Agnes: /ˈægnɪs/            # IPA, converted to espeak-ng phonemes
    /// patterns:
    ///   '\bDr\.(?= [A-Z])': Doctor # an ICU regular expression; $1… insert its groups
    /// ```
    ///
    /// An IPA transcription espeak-ng cannot express is left out and listed in ``notes``.
    /// - throws: ``ManifestError`` naming the file, line and key of a malformed entry.
    public static func parse(yaml: String, file: String) throws -> Lexicon {
        guard let root = try ManifestLayer.composeChecked(yaml, file: file) else {
            return try Lexicon(name: file, language: nil, entries: [])
        }
        let top = try YAMLValue(node: root, key: "", file: file).mapping(allowed: ["language", "words", "patterns"])
        var entries: [Entry] = []
        var notes: [PronunciationNote] = []
        func add(_ match: Entry.Match, _ value: YAMLValue, _ text: String) throws {
            switch spoken(from: try value.string()) {
            case .success(let spoken): entries.append(Entry(match: match, spoken: spoken, line: value.line))
            case .failure(let problem):
                guard !problem.isMalformed else { throw value.error(problem.reason) }
                notes.append(PronunciationNote(source: file + (value.line.map { ":\($0)" } ?? ""), text: text, reason: problem.reason))
            }
        }
        for key in ["patterns", "words"] {
            guard let section = top[key] else { continue }
            for (text, value) in try section.dictionary() {
                if text.isEmpty { throw value.error("an empty \(key == "words" ? "word" : "pattern")") }
                if key == "patterns" {
                    guard UserRegex.isValid(text) else { throw value.error("not a valid regular expression: \(UserText.excerpt(text))") }
                }
                try add(key == "words" ? .word(text) : .pattern(text), value, text)
            }
        }
        return try Lexicon(name: file, language: try top["language"]?.string(), entries: entries, notes: notes)
    }

    /// What the engine reads for a lexicon value: `[[phonemes]]` as given, `/IPA/` converted,
    /// anything else as a respelling. A malformed value fails with `isMalformed` true; IPA
    /// without espeak-ng equivalents fails with it false.
    public static func spoken(from value: String) -> Swift.Result<String, PronunciationProblem> {
        let v = value.trimmingCharacters(in: .whitespaces)
        if v.hasPrefix("[[") {
            let inner = v.dropFirst(2)
            guard inner.hasSuffix("]]"), !inner.dropLast(2).contains("]]"), !inner.dropLast(2).contains("[["),
                  !inner.dropLast(2).trimmingCharacters(in: .whitespaces).isEmpty else {
                return .failure(PronunciationProblem("expected espeak-ng phonemes as [[…]], found \(v)", isMalformed: true))
            }
            return .success(v)
        }
        if v.count > 2, v.hasPrefix("/"), v.hasSuffix("/") {
            return Pronunciation.spoken(fromIPA: String(v.dropFirst().dropLast()))
        }
        guard !v.isEmpty, !v.contains("[["), !v.contains("]]") else {
            return .failure(PronunciationProblem("expected a respelling, [[phonemes]] or /IPA/, found \"\(UserText.excerpt(v))\"", isMalformed: true))
        }
        return .success(v)
    }
}
