import LecternCore
import LecternSpeech
import LecternExport

/// Lays finished chunks out on the book's timeline in book order, turning their layouts and
/// word marks into paragraph timings (sent to the sidecar at once) and chapter spans.
///
/// Results that arrive ahead of an unfinished earlier chunk wait: at most about one chunk per
/// worker when rendering from scratch, and the cached chunks after the first one not cached.
struct Timeline {
    let plan: NarrationPlan
    let chunks: [RenderChunk]
    let timer: UtteranceTimer
    let sidecar: TimingSidecarWriter?
    let fingerprint: (PlannedChapter) -> ChapterFingerprint

    private(set) var spans: [BookRenderer.ChapterSpan] = []
    private(set) var last: ChunkResult?
    private var waiting: [Int: ChunkResult] = [:]
    private var next = 0
    /// Where the next chunk starts in the decoded book.
    private var position = 0
    private var chapter = -1
    private var chapterStart = 0
    /// The utterance being gathered from its parts (it may span chunks).
    private var utterance: (index: Int, start: Int, end: Int, marks: [(offset: Int, sample: Int)], estimated: Set<Int>)?

    init(plan: NarrationPlan, chunks: [RenderChunk], sampleRate: Int, sidecar: TimingSidecarWriter?,
         fingerprint: @escaping (PlannedChapter) -> ChapterFingerprint) {
        self.plan = plan
        self.chunks = chunks
        self.timer = UtteranceTimer(sampleRate: sampleRate)
        self.sidecar = sidecar
        self.fingerprint = fingerprint
    }

    mutating func add(_ result: ChunkResult) throws {
        waiting[result.index] = result
        while let ready = waiting.removeValue(forKey: next) {
            try place(chunks[next], ready)
            next += 1
        }
    }

    /// Closes the last chapter; returns the book's length in samples.
    mutating func finish() throws -> Int {
        guard let last else { return 0 }
        let total = position - last.audioFrames * last.samplesPerFrame + last.sampleCount
        try closeUtterance()
        try closeChapter(at: total)
        return total
    }

    private mutating func place(_ chunk: RenderChunk, _ result: ChunkResult) throws {
        let base = position
        if chunk.chapter != chapter {
            try closeUtterance()
            if chapter >= 0 { try closeChapter(at: base + result.items[0].start) }
            chapter = chunk.chapter
            chapterStart = base + result.items[0].start
            let planned = plan.chapters[chapter]
            try sidecar?.beginChapter(number: planned.number, title: planned.title, start: timer.ms(chapterStart), part: planned.part)
        }
        for (item, layout) in zip(chunk.items, result.items) {
            if utterance?.index != item.utterance {
                try closeUtterance()
                utterance = (item.utterance, Int.max, 0, [], [])
            }
            let speechStart = base + layout.speechStart
            utterance!.start = min(utterance!.start, speechStart)
            utterance!.end = max(utterance!.end, speechStart + layout.speechLength)
            utterance!.marks += layout.marks.map { (offset: item.textOffset + $0[0], sample: speechStart + $0[1]) }
            for mark in layout.marks where mark.count > 2 && mark[2] == 1 { utterance!.estimated.insert(item.textOffset + mark[0]) }
        }
        position += result.audioFrames * result.samplesPerFrame
        last = result
    }

    private mutating func closeUtterance() throws {
        guard let u = utterance else { return }
        utterance = nil
        let spoken = plan.chapters[chapter].utterances[u.index]
        var paragraph = timer.paragraph(kind: spoken.kind, text: spoken.text, voice: spoken.voice.name,
                                        marks: u.marks.map { ($0.offset, $0.sample - u.start) },
                                        speechStart: u.start, speechLength: u.end - u.start,
                                        spans: spoken.segments.compactMap { s in s.language.map {
                                            VoiceSpan(offset: s.offset, length: s.length, voice: s.voice.name, language: $0,
                                                      detected: s.detected ? true : nil, engine: s.voice.engineName) } },
                                        pronounced: spoken.pronunciations, engine: spoken.voice.engineName, estimatedMarks: u.estimated)
        paragraph.language = spoken.language
        paragraph.detected = spoken.languageDetected ? true : nil
        paragraph.persona = spoken.persona?.name
        paragraph.speakerLabel = spoken.speakerLabel
        paragraph.section = spoken.opensSection ? true : nil
        try sidecar?.append(paragraph)
    }

    private mutating func closeChapter(at end: Int) throws {
        let planned = plan.chapters[chapter]
        try sidecar?.endChapter(end: timer.ms(end))
        spans.append(.init(number: planned.number, title: planned.title, part: planned.part, fingerprint: fingerprint(planned),
                           startSample: chapterStart, sampleCount: end - chapterStart))
    }
}
