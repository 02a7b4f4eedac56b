import LecternCore
import LecternSpeech
import LecternText

/// The narration script (`lectern check --text`): what a listener will hear, in order — part and
/// chapter headings, every utterance as the engine will be given it (after spoken-form rules and
/// pronunciations), each passage read in another language than the book's with its language,
/// whether it was detected and its voice (`[fr, detected: fr-fr]` before a paragraph, a line
/// `↳ [fr: fr-fr] …` under it for a part of it), quoted speech read with the `dialogue:` voice
/// between `⟨` and `⟩`, who speaks each speech of a play and with which voice (`[Roper — en-gb+m3]`
/// before it), and each passage left out, in its place, with the reason (a silent speaker label
/// as `[speaker, silent] ROPER.`).
///
/// ``chapters`` and ``unplaced`` hold the same as ``text``, as values (`lectern serve`'s script as JSON).
public struct NarrationScript: Sendable {
    /// The heading `check --text` puts over its closing summary of the passages left out (after
    /// the last chapter, so that no reader of the script takes the summary for spoken lines).
    public static let leftOutHeading = "=== Left out of the narration ==="
    public let text: String
    /// The chapters in order, each with its lines as the text shows them.
    public private(set) var chapters: [Chapter] = []
    /// Passages left out that belong to no chapter (a book's front matter before its first).
    public private(set) var unplaced: [Line] = []

    /// A chapter of the script.
    public struct Chapter: Codable, Sendable, Equatable {
        public var number: Int
        public var title: String
        public var part: String?
        public var lines: [Line]
    }

    /// One line of the script: an utterance as the engine is given it, or a passage left out
    /// (`kind` `skipped`, with its `reason` and `words`).
    public struct Line: Codable, Sendable, Equatable {
        public var kind: String
        public var text: String
        public var voice: String?
        public var persona: String?
        public var language: String?
        public var reason: String?
        public var words: Int?
        /// Parts of the utterance read in another language: `[language, voice, text]`.
        public var passages: [[String]]?
    }

    public init(plan: NarrationPlan, title: String) {
        var out = "\(title)\n"
        var lines: [Line] = []
        func skipped(_ item: SkippedText) {
            let words = item.words ?? WordTokenizer.count(in: item.text)
            lines.append(Line(kind: "skipped", text: item.text.split(whereSeparator: \.isWhitespace).joined(separator: " "),
                              reason: item.reason == .silentSpeakerLabel ? "silent speaker label" : item.reason.rawValue, words: words))
            if item.reason == .silentSpeakerLabel {
                out += "  [speaker, silent] \(item.text.split(whereSeparator: \.isWhitespace).joined(separator: " "))\n"
                return
            }
            let flat = item.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            let shown = flat.count > 160 ? flat.prefix(160) + " …" : Substring(flat)
            out += "  [skipped: \(item.reason)] \(shown) (\(words) word\(words == 1 ? "" : "s"))\n"
        }
        var chapters: [Chapter] = []
        let byChapter = Dictionary(grouping: plan.skipped.filter { $0.chapter != nil }, by: { $0.chapter! })
        let unplaced = plan.skipped.filter { $0.chapter == nil }
        if !unplaced.isEmpty {
            out += "\n(outside the chapters)\n"
            unplaced.forEach(skipped)
            self.unplaced = lines
            lines = []
        }
        var part: String?
        for chapter in plan.chapters {
            if chapter.part != part, let title = chapter.part {
                out += "\n##### PART: \(title)\n"
            }
            part = chapter.part
            out += "\n=== Chapter \(chapter.number): \(chapter.title) ===\n"
            var pending = byChapter[chapter.number] ?? []
            for utterance in chapter.utterances {
                if let index = utterance.blockIndex {
                    let before = pending.filter { ($0.beforeBlock ?? Int.max) <= index }
                    before.forEach(skipped)
                    pending.removeAll { ($0.beforeBlock ?? Int.max) <= index }
                }
                // Quoted speech read with the `dialogue:` voice between ⟨ and ⟩.
                var spoken = utterance.spokenText(marking: utterance.speechRanges, open: "⟨", close: "⟩")
                    .split(whereSeparator: \.isWhitespace).joined(separator: " ")
                var line = Line(kind: "\(utterance.kind)", text: spoken, voice: utterance.voice.name, persona: utterance.persona?.name,
                                language: utterance.language)
                // Text read in another language than the book's: its language, whether it was
                // detected, and the voice.
                if let language = utterance.language {
                    spoken = "[\(language)\(utterance.languageDetected ? ", detected" : ""): \(utterance.voice.name)] " + spoken
                }
                if let persona = utterance.persona { spoken = "[\(persona.name) — \(utterance.voice.name)] " + spoken }
                switch utterance.kind {
                // A section's heading (a diary entry, a letter) inside its chapter.
                case .heading where utterance.opensSection: out += "  [section] \(spoken)\n"
                case .heading: out += "  [heading] \(spoken)\n"
                case .quote: out += "  [quote] \(spoken)\n"
                case .listItem: out += "  • \(spoken)\n"
                case .speaker: out += "  [speaker] \(spoken)\n"
                case .stageDirection: out += "  [stage direction] \(spoken)\n"
                case .paragraph: out += "  \(spoken)\n"
                }
                let units = Array(utterance.text.utf16)
                for segment in utterance.segments where segment.offset + segment.length <= units.count {
                    guard let language = segment.language else { continue }
                    let part = String(decoding: units[segment.offset..<(segment.offset + segment.length)], as: UTF16.self)
                    let flat = part.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                    out += "    ↳ [\(language)\(segment.detected ? ", detected" : ""): \(segment.voice.name)] \(flat)\n"
                    line.passages = (line.passages ?? []) + [[language, segment.voice.name, flat]]
                }
                lines.append(line)
            }
            pending.forEach(skipped)
            chapters.append(Chapter(number: chapter.number, title: chapter.title, part: chapter.part, lines: lines))
            lines = []
        }
        text = out
        self.chapters = chapters
    }
}
