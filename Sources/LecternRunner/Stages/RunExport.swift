import Foundation
import LecternCore
import LecternSpeech
import LecternAudio
import LecternExport

/// Stages 3 and 4, assemble and export: the book's MP3 (its ID3 tag with chapters, the chunk
/// streams concatenated), the finished JSON sidecar and the other timing exports, and with
/// `split: chapters` a file per chapter and a playlist, each written and synced under a
/// temporary name, then all renamed into place one after the other.
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
        let tag = ID3Tag(title: manifest.title, artist: manifest.author, album: manifest.title,
                         cover: planned.cover, chapters: marks, details: details, language: bookLanguage)
        let mp3 = try AtomicFile(manifest.mp3URL)
        try MP3BookAssembler.write(tag: tag, parts: rendered.parts, endPadding: rendered.endPadding, to: mp3,
                                   checkpoint: runner.assemblyCheckpoint)
        let plan = planned.plan
        try sidecar?.finish(sampleCount: rendered.sampleCount, wordCount: plan.wordCount, skipped: plan.skipped,
                            unpronounced: plan.pronunciationNotes)
        let book = TimingExports.Book(chapterAudio: rendered.chapterAudio, sampleRate: sampleRate,
                                      language: bookLanguage,
                                      workDirectory: render.workDirectory, cover: manifest.cover == nil ? nil : planned.cover,
                                      logger: runner.logger)
        let exports = try sidecar.map { try TimingExports.prepare(manifest.timings, from: $0, manifest: manifest, book: book) } ?? []
        defer { exports.forEach { $0.discard() } }
        let split = try manifest.split == .chapters ? ChapterFiles(
            chapters: zip(marks, rendered.chapterAudio).map { ChapterFiles.Chapter(title: $0.title, audio: $1) },
            book: tag, sampleRate: sampleRate, folder: manifest.chaptersFolderURL, playlist: manifest.playlistURL) : nil
        defer { split?.discard() }
        try control.check()
        try mp3.commit()
        try split?.commit()
        if manifest.timings.contains(.json) { try sidecar?.commit() }
        for export in exports { try export.commit() }
        return planned.outputs
    }
}
