import Foundation
import LecternCore

/// Reads a W3C Pronunciation Lexicon (PLS 1.0) into a ``Lexicon``: each lexeme's graphemes are
/// words, said with its first phoneme espeak-ng can express (IPA is converted; `x-espeak`
/// phonemes are used as they are), or else its alias as a respelling. A lexeme with neither is
/// left out and reported in the lexicon's notes.
public enum PLSLexicon {
    /// The largest lexicon a document's link reads.
    static let maxInput = 16 << 20
    static let namespace = "http://www.w3.org/2005/01/pronunciation-lexicon"

    /// - parameters:
    ///     - data: The PLS document.
    ///     - name: How reports name it, e.g. "book.epub: EPUB/lexicon/en.pls".
    /// - throws: ``DocumentError`` when it is not a well-formed PLS document.
    public static func parse(_ data: Data, name: String) throws -> Lexicon {
        let tree: XMLTree
        do { tree = try XMLTree.xml(data, name: name) } catch let error as XMLTree.ParseError {
            throw DocumentError(document: name, message: "the pronunciation lexicon is malformed XML, \(error)")
        }
        guard let root = tree.root, root.name == "lexicon" else {
            throw DocumentError(document: name, message: "not a pronunciation lexicon (PLS): its root element is not <lexicon>")
        }
        let alphabet = root["alphabet"] ?? "ipa"
        var entries: [Lexicon.Entry] = []
        var notes: [PronunciationNote] = []
        for lexeme in root.elements where lexeme.name == "lexeme" {
            let graphemes = lexeme.elements.filter { $0.name == "grapheme" }.map { $0.textContent.trimmingCharacters(in: .whitespacesAndNewlines) }
                .filter { !$0.isEmpty }
            guard !graphemes.isEmpty else { continue }
            var spoken: String?
            var problems: [String] = []
            for element in lexeme.elements {
                let value = element.textContent.trimmingCharacters(in: .whitespacesAndNewlines)
                switch element.name {
                case "phoneme":
                    let result: Result<String, PronunciationProblem>
                    switch (element["alphabet"] ?? alphabet).lowercased() {
                    case "ipa": result = Pronunciation.spoken(fromIPA: value)
                    case "x-espeak", "x-espeak-ng": result = Lexicon.spoken(from: "[[\(value)]]")
                    case let other: result = .failure(PronunciationProblem("alphabet \"\(other)\" is not supported (ipa or x-espeak)"))
                    }
                    switch result {
                    case .success(let s): spoken = spoken ?? s
                    case .failure(let problem): problems.append(problem.reason)
                    }
                case "alias":
                    if case .success(let s) = Lexicon.spoken(from: value), !s.hasPrefix("[[") { spoken = spoken ?? s }
                default:
                    break
                }
                if spoken != nil { break }
            }
            guard let spoken else {
                let reason = problems.isEmpty ? "no phoneme or alias" : problems.joined(separator: "; ")
                notes.append(PronunciationNote(source: name, text: graphemes.joined(separator: ", "), reason: reason + "; read as written"))
                continue
            }
            entries += graphemes.map { Lexicon.Entry(match: .word($0), spoken: spoken) }
        }
        do {
            return try Lexicon(name: name, language: root.attribute("lang", namespace: XMLNode.xmlNamespace), entries: entries, notes: notes)
        } catch let problem as PronunciationProblem {
            throw DocumentError(document: name, message: problem.reason)
        }
    }
}
