import Foundation
import LecternCore
import LecternSpeech
import LecternAudio
import LecternExport

/// Stages 3 and 4, assemble and export: the book in each of its formats — the MP3 (its ID3 tag
/// with chapters, the chunk streams concatenated), the M4B and Opus encoded in one pass over
/// the chunks' PCM — the finished JSON sidecar and the other timing exports, and with
/// `split: chapters` a file per chapter and format and a playlist per format; each written and
/// synced under a temporary name, then all renamed into place one after the other.
enum RunExport {
    /// - returns: The files written.
    static func write(runner: JobRunner, planned: RunPlan, render: RunRender, control: RunControl) throws -> [URL] {
        let (manifest, rendered, sampleRate) = (planned.manifest, render.rendered, planned.engine.sampleRate)
        let sidecar = render.sidecar
        defer { sidecar?.discard() }
        let bookLanguage = manifest.language ?? Segmenter.languageCode(manifest.voice.name) ?? "en"
        let ms = { (sample: Int) in Int((Double(sample) * 1000 / Double(sampleRate)).rounded()) }
        let marks = rendered.chapters.map {
            ID3Tag.ChapterMark(title: $0.title, startMs: ms($0.startSample), endMs: ms($0.startSample + $0.sampleCount), part: $0.part)
        }
        var details = manifest.details
        details.narrator = details.narrator ?? BookDetails.speechEngineNarrator
        let metadata = AudioMetadata(title: manifest.title, artist: manifest.author, album: manifest.title, details: details,
                                    language: bookLanguage, cover: planned.cover, chapters: marks)
        var written: [AtomicFile] = []
        defer { written.forEach { $0.discard() } }
        if manifest.split.writesBook, manifest.formats.contains(.mp3) {
            let mp3 = try AtomicFile(manifest.mp3URL)
            written.append(mp3)
            try MP3BookAssembler.write(tag: ID3Tag(metadata), parts: rendered.parts, endPadding: rendered.endPadding, to: mp3,
                                       checkpoint: runner.assemblyCheckpoint)
        }
        var chapterFiles = zip(marks, rendered.chapterAudio).map { ChapterFiles.Chapter(title: $0.title, audio: $1) }
        if manifest.profile == .acx {
            // ACX takes no file over 120 minutes: a longer chapter is delivered in parts.
            chapterFiles = ACXFiles.files(chapters: chapterFiles.map { ($0.title, $0.audio.startSample..<($0.audio.startSample + $0.audio.sampleCount)) },
                                          chunkStarts: rendered.pcm.map(\.startSample), sampleRate: sampleRate).map {
                ChapterFiles.Chapter(title: $0.title, audio: ChapterAudio(parts: [], startSample: $0.range.lowerBound, endPadding: 0,
                                                                          sampleCount: $0.range.count))
            }
        }
        let split = try manifest.split.writesChapters ? ChapterFiles(
            chapters: chapterFiles,
            book: metadata, sampleRate: sampleRate, folder: manifest.chaptersFolderURL, formats: manifest.formats,
            assemblesMP3: manifest.profile != .acx, playlist: manifest.playlistURL(for:)) : nil
        defer { split?.discard() }
        try encodeFromPCM(runner: runner, manifest: manifest, rendered: rendered, metadata: metadata, sampleRate: sampleRate, split: split, into: &written)
        try split?.finish()
        let plan = planned.plan
        try sidecar?.finish(sampleCount: rendered.sampleCount, wordCount: plan.wordCount, skipped: plan.skipped,
                            unpronounced: plan.pronunciationNotes)
        let book = TimingExports.Book(chapterAudio: rendered.chapterAudio, sampleRate: sampleRate,
                                      language: bookLanguage,
                                      workDirectory: render.workDirectory, cover: manifest.cover == nil ? nil : planned.cover,
                                      logger: runner.logger)
        let exports = try sidecar.map { try TimingExports.prepare(manifest.timings, from: $0, manifest: manifest, book: book) } ?? []
        defer { exports.forEach { $0.discard() } }
        try control.check()
        for file in written { try file.commit() }
        try split?.commit()
        if manifest.timings.contains(.json) { try sidecar?.commit() }
        for export in exports { try export.commit() }
        return planned.outputs
    }

    /// The M4B and Opus files (the book's and, with `split:`, each chapter's), encoded in one
    /// pass over the chunks' PCM laid on the book's timeline (``BookPCM``).
    private static func encodeFromPCM(runner: JobRunner, manifest: Manifest, rendered: BookRenderer.Result, metadata: AudioMetadata,
                                      sampleRate: Int, split: ChapterFiles?, into written: inout [AtomicFile]) throws {
        let formats = manifest.formats.filter(\.needsPCM)
        let acx = manifest.profile == .acx ? split : nil
        guard !formats.isEmpty || acx != nil else { return }
        // Opus's encoder uses as many threads as the run has workers here (every core when this host
        // renders none of the chunks: the export is its work all the same).
        let threads = runner.workers.flatMap { $0 > 0 ? $0 : nil } ?? ProcessInfo.processInfo.activeProcessorCount
        var targets: [BookPCM.Target] = []
        if let acx {
            for (i, chapter) in acx.chapters.map(\.audio).enumerated() {
                targets.append(BookPCM.Target(range: chapter.startSample..<(chapter.startSample + chapter.sampleCount)) {
                    try EncodedAudio.acxMaster(url: acx.fileURL(chapter: i, format: .mp3), sampleRate: sampleRate,
                                               metadata: acx.metadata(metadata, chapter: i))
                })
            }
        }
        for format in formats {
            if manifest.split.writesBook {
                let file = try AtomicFile.external(manifest.url(for: format))
                written.append(file)
                targets.append(BookPCM.Target(range: 0..<rendered.sampleCount) {
                    try EncodedAudio.writer(format, url: file.temporaryURL, sampleRate: sampleRate,
                                            bitrate: manifest.audio.bitrate, metadata: metadata, threads: threads)
                })
            }
            if let split {
                for (i, chapter) in rendered.chapterAudio.enumerated() {
                    targets.append(BookPCM.Target(range: chapter.startSample..<(chapter.startSample + chapter.sampleCount)) {
                        try EncodedAudio.writer(format, url: split.fileURL(chapter: i, format: format), sampleRate: sampleRate,
                                                bitrate: manifest.audio.bitrate, metadata: split.metadata(metadata, chapter: i),
                                                threads: threads)
                    })
                }
            }
        }
        try BookPCM(chunks: rendered.pcm, sampleCount: rendered.sampleCount).stream(to: targets)
    }
}
