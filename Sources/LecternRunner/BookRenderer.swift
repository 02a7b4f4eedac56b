import Foundation
import LecternCore
import LecternSpeech
import LecternAudio
import LecternTiming

/// Renders a narration plan on a pool of worker processes, one chunk per stream, and lays the
/// chunks out on the book's timeline from the frames each one actually produced.
///
/// Decoders play every frame of every chunk, except what the book's LAME tag trims: the first
/// chunk's encoder delay (plus the decoder's own 529-sample delay) at the start and the last
/// chunk's padding at the end. So chunk k starts in the decoded book at
/// `Σ(frames of chunks before k) × samplesPerFrame`, and a sample s of its input plays at that
/// start plus s. Every time in the sidecar and every chapter mark comes from these counts.
struct BookRenderer {
    let manifest: Manifest
    let sampleRate: Int
    let engineVersion: String
    let pool: WorkerPool
    /// Folder for the chunk streams (removed by the caller).
    let chunkDirectory: URL

    struct Progress {
        var wordsDone: Int
        var samplesDone: Int
        var chunksDone: Int
        var chunkCount: Int
    }

    struct Result {
        var chapters: [ChapterTiming]
        var records: [(number: Int, title: String, hash: String, startSample: Int, sampleCount: Int)]
        var sampleCount: Int
        var chunkFiles: [URL]
        var results: [ChunkResult]
    }

    func render(_ plan: NarrationPlan, progress: @escaping (Progress) throws -> Void) throws -> Result {
        let chunks = ChunkPlanner(sampleRate: sampleRate).chunks(for: plan)
        guard !chunks.isEmpty else { throw RunError("nothing to render") }
        let files = chunks.map { chunkDirectory.appendingPathComponent(String(format: "chunk-%06d.mp3", $0.index)) }
        let requests = chunks.map { chunk in
            ChunkRequest(chunk: chunk, output: files[chunk.index].path, bitrate: manifest.audio.bitrate,
                         quality: manifest.audio.quality, writesTag: chunk.index == 0, compensatesSeam: chunk.index != chunks.count - 1)
        }
        var results = [ChunkResult?](repeating: nil, count: chunks.count)
        var done = Progress(wordsDone: 0, samplesDone: 0, chunksDone: 0, chunkCount: chunks.count)
        try pool.run(requests) { result in
            results[result.index] = result
            done.chunksDone += 1
            done.wordsDone += chunks[result.index].wordCount
            done.samplesDone += result.audioFrames * result.samplesPerFrame
            try progress(done)
        }
        let laid = results.compactMap { $0 }
        guard laid.count == chunks.count else { throw RunError("\(chunks.count - laid.count) chunks were not rendered") }
        return layOut(plan, chunks: chunks, results: laid, files: files)
    }

    /// Places every chunk, utterance and word on the book's timeline.
    func layOut(_ plan: NarrationPlan, chunks: [RenderChunk], results: [ChunkResult], files: [URL]) -> Result {
        var starts: [Int] = []
        var position = 0
        for r in results {
            starts.append(position)
            position += r.audioFrames * r.samplesPerFrame
        }
        let last = results[results.count - 1]
        let total = starts[starts.count - 1] + last.sampleCount
        let timer = UtteranceTimer(sampleRate: sampleRate)

        // Absolute positions of each utterance's speech and word marks, gathered from its parts.
        struct Spoken { var start = Int.max, end = 0, marks: [(offset: Int, sample: Int)] = [] }
        var spoken: [[Int: Spoken]] = Array(repeating: [:], count: plan.chapters.count)
        var chapterStart = [Int?](repeating: nil, count: plan.chapters.count)
        for (chunk, result) in zip(chunks, results) {
            let base = starts[chunk.index]
            if chapterStart[chunk.chapter] == nil { chapterStart[chunk.chapter] = base + result.items[0].start }
            for (item, layout) in zip(chunk.items, result.items) {
                var s = spoken[chunk.chapter][item.utterance] ?? Spoken()
                let speechStart = base + layout.speechStart
                s.start = min(s.start, speechStart)
                s.end = max(s.end, speechStart + layout.speechLength)
                s.marks += layout.marks.map { (offset: item.textOffset + $0[0], sample: speechStart + $0[1]) }
                spoken[chunk.chapter][item.utterance] = s
            }
        }
        var timings: [ChapterTiming] = []
        var records: [(Int, String, String, Int, Int)] = []
        for (c, chapter) in plan.chapters.enumerated() {
            let start = chapterStart[c] ?? total
            let end = chapterStart[(c + 1)...].compactMap { $0 }.first ?? total
            let paragraphs = chapter.utterances.enumerated().compactMap { u, utterance -> ParagraphTiming? in
                guard let s = spoken[c][u] else { return nil }
                return timer.paragraph(kind: utterance.kind, text: utterance.text, voice: utterance.voice.name,
                                       marks: s.marks.map { ($0.offset, $0.sample - s.start) },
                                       speechStart: s.start, speechLength: s.end - s.start)
            }
            timings.append(ChapterTiming(number: chapter.number, title: chapter.title, start: timer.ms(start), end: timer.ms(end),
                                         paragraphs: paragraphs))
            records.append((chapter.number, chapter.title, contentHash(chapter), start, end - start))
        }
        return Result(chapters: timings, records: records, sampleCount: total, chunkFiles: files, results: results)
    }

    /// A hash of everything that determines a chapter's audio.
    func contentHash(_ chapter: PlannedChapter) -> String {
        var hasher = SHA256()
        hasher.update("espeak-ng \(engineVersion) \(sampleRate)\n")
        hasher.update("mp3 \(manifest.audio.bitrate) q\(manifest.audio.quality)\n")
        hasher.update("chapter \(chapter.title)\n\(chapter.pause.before) \(chapter.pause.after)\n")
        for u in chapter.utterances {
            hasher.update("\(u.kind.rawValue) \(u.voice.name) \(u.voice.wordsPerMinute) \(u.voice.pitch) \(u.voice.volume) \(u.preDelay) \(u.postDelay)\n")
            hasher.update(u.text)
            hasher.update("\n")
        }
        return hasher.hexDigest()
    }
}
