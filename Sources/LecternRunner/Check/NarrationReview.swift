import Foundation
import LecternCore
import LecternSpeech

/// Finds what is likely a leak in what will be spoken — text a listener should not hear: runs in
/// brackets, lines dense in symbols, URLs, long upper-case runs — naming chapter and paragraph,
/// so a user can add a `skip` pattern or a lexicon entry before rendering.
public struct NarrationReview: Sendable {
    /// One suspicious paragraph.
    public struct Finding: Sendable, Equatable, Encodable, CustomStringConvertible {
        public var chapter: Int
        /// 1-based position among the chapter's utterances (its spoken title included).
        public var paragraph: Int
        public var problem: String
        /// The stretch that looks wrong, as it will be spoken.
        public var excerpt: String

        public var description: String { "chapter \(chapter), paragraph \(paragraph): \(problem): \"\(excerpt)\"" }
    }

    private static let bracket = try! NSRegularExpression(pattern: #"[\[{][^\]}]{0,80}[\]}]"#)
    private static let url = try! NSRegularExpression(
        pattern: #"\b(?:https?://|ftp://|www\.)\S+|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+"#, options: [.caseInsensitive])
    private static let upperRun = try! NSRegularExpression(
        pattern: #"(?:\b[\p{Lu}][\p{Lu}'’-]+\b[\s,;.:]*){10,}"#)

    public init() {}

    /// The findings for every utterance of `plan`, in reading order.
    public func findings(in plan: NarrationPlan) -> [Finding] {
        var result: [Finding] = []
        for chapter in plan.chapters {
            for (i, utterance) in chapter.utterances.enumerated() {
                for (problem, excerpt) in problems(in: utterance.spokenText, kind: utterance.kind) {
                    result.append(Finding(chapter: chapter.number, paragraph: i + 1, problem: problem, excerpt: excerpt))
                }
            }
        }
        return result
    }

    /// What looks wrong in one spoken text.
    func problems(in text: String, kind: BlockKind) -> [(String, String)] {
        var found: [(String, String)] = []
        let ns = text as NSString
        let whole = NSRange(location: 0, length: ns.length)
        // Phoneme input (`[[…]]`) is a pronunciation, not a leak.
        let plain = text.replacingOccurrences(of: #"\[\[[^\]]*\]\]"#, with: " ", options: .regularExpression)
        let plainNS = plain as NSString
        if let m = Self.bracket.firstMatch(in: plain, range: NSRange(location: 0, length: plainNS.length)) {
            found.append(("a bracketed run will be read aloud", plainNS.substring(with: m.range)))
        }
        if let m = Self.url.firstMatch(in: text, range: whole) {
            found.append(("a URL or e-mail address will be read aloud", ns.substring(with: m.range)))
        }
        let symbols = plain.unicodeScalars.filter { !CharacterSet.alphanumerics.contains($0) && !CharacterSet.whitespaces.contains($0)
            && !".,;:!?'’‘\"“”()-–—".unicodeScalars.contains($0) }.count
        let letters = plain.unicodeScalars.filter { CharacterSet.letters.contains($0) }.count
        if plain.count >= 8, symbols * 3 > letters {
            found.append(("dense in symbols (\(symbols) symbols, \(letters) letters)", String(plain.prefix(80))))
        }
        if kind != .heading, let m = Self.upperRun.firstMatch(in: text, range: whole) {
            found.append(("a long upper-case run (a heading or a title page run into the text?)", String(ns.substring(with: m.range).prefix(80))))
        }
        return found
    }
}
