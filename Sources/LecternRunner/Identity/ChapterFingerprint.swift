import LecternCore
import LecternSpeech
import LecternStore

/// Hashes of the parts of a chapter that decide its audio — text, voices, pauses, engine and
/// audio settings — and of them all together (the chapter's content hash). Comparing them with
/// the job's previous run says why a chapter was re-rendered.
struct ChapterFingerprint: Equatable {
    var title: String
    var text: String
    var voice: String
    var pause: String
    var settings: String

    init(_ chapter: PlannedChapter, settings: String) {
        title = chapter.title
        var text = SHA256(), voice = SHA256(), pause = SHA256()
        pause.update("chapter \(chapter.pause.before) \(chapter.pause.after)\n")
        for u in chapter.utterances {
            text.update("\(u.kind.rawValue) \(u.text.utf8.count)\n")
            text.update(u.text)
            voice.update("\(u.voice.name) \(u.voice.wordsPerMinute) \(u.voice.pitch) \(u.voice.volume)\n")
            if let speaker = u.voice.speaker { voice.update("speaker \(speaker)\n") }
            for s in u.segments {
                voice.update("  \(s.offset) \(s.length) \(s.voice.name) \(s.voice.wordsPerMinute) \(s.voice.pitch) \(s.voice.volume)\n")
                if let speaker = s.voice.speaker { voice.update("  speaker \(speaker)\n") }
            }
            pause.update("\(u.preDelay) \(u.postDelay)\n")
        }
        self.text = text.hexDigest()
        self.voice = voice.hexDigest()
        self.pause = pause.hexDigest()
        self.settings = SHA256.hex(settings)
    }

    /// A hash of everything above.
    var content: String { SHA256.hex("\(title)\n\(text)\n\(voice)\n\(pause)\n\(settings)") }

    /// Why `self` differs from a chapter of an earlier run, in words; nil when it does not.
    func change(from old: ChapterRecord) -> String? {
        var reasons: [String] = []
        if text != old.textHash { reasons.append("text changed") }
        if title != old.title { reasons.append("title changed") }
        if voice != old.voiceHash { reasons.append("voice changed") }
        if pause != old.pauseHash { reasons.append("pauses changed") }
        if settings != old.settingsHash { reasons.append("engine or audio settings changed") }
        return reasons.isEmpty ? nil : reasons.joined(separator: ", ")
    }

    /// Why the chapter was re-rendered (or "unchanged"), against the chapters of the job's
    /// previous run: the same chapter number, or the same content at another number (moved).
    func change(among previous: [ChapterRecord], number: Int, rendered: Bool, forced: Bool) -> String {
        if forced, rendered { return "forced (--force)" }
        let same = previous.first { $0.number == number }
        if let same, change(from: same) == nil { return rendered ? "unchanged, but not in the cache" : "unchanged" }
        if let moved = previous.first(where: { change(from: $0) == nil }) { return "moved from chapter \(moved.number)" }
        if let same, let change = change(from: same) { return change }
        return previous.isEmpty ? "first render" : "new chapter"
    }
}
