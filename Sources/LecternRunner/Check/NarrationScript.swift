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
public struct NarrationScript: Sendable {
    public let text: String

    public init(plan: NarrationPlan, title: String) {
        var out = "\(title)\n"
        func skipped(_ item: SkippedText) {
            if item.reason == Segmenter.silentLabelReason {
                out += "  [speaker, silent] \(item.text.split(whereSeparator: \.isWhitespace).joined(separator: " "))\n"
                return
            }
            let words = item.words ?? WordTokenizer.count(in: item.text)
            let flat = item.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            let shown = flat.count > 160 ? flat.prefix(160) + " …" : Substring(flat)
            out += "  [skipped: \(item.reason)] \(shown) (\(words) word\(words == 1 ? "" : "s"))\n"
        }
        let byChapter = Dictionary(grouping: plan.skipped.filter { $0.chapter != nil }, by: { $0.chapter! })
        let unplaced = plan.skipped.filter { $0.chapter == nil }
        if !unplaced.isEmpty {
            out += "\n(outside the chapters)\n"
            unplaced.forEach(skipped)
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
                // Text read in another language than the book's: its language, whether it was
                // detected, and the voice.
                if let language = utterance.language {
                    spoken = "[\(language)\(utterance.languageDetected ? ", detected" : ""): \(utterance.voice.name)] " + spoken
                }
                if let persona = utterance.persona { spoken = "[\(persona.name) — \(utterance.voice.name)] " + spoken }
                switch utterance.kind {
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
                }
            }
            pending.forEach(skipped)
        }
        text = out
    }
}
