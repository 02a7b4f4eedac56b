import Foundation
import LecternCore
import LecternText
import LecternRunner
import LecternStore

/// One manifest's outcome as `lectern run --json` prints it.
struct RunReport: Encodable {
    var manifest: String
    /// `succeeded`, `failed` or `cancelled`.
    var state: RunState
    var error: String?
    var run: Int64?
    var job: Int64?
    /// Whether the outputs were already current, so nothing was written.
    var upToDate: Bool?
    var outputs: [String]?
    var chapters: Int?
    var paragraphs: Int?
    var words: Int?
    var durationSeconds: Double?
    var chunks: Int?
    var chunksRendered: Int?
    var chunksReused: Int?
    /// Wall-clock seconds of each stage (prepare, render, assemble).
    var phases: [String: Double]?
    /// What the book leaves out: its largest skipped passages and each kind's share of its words.
    var skips: SkipSummary?

    init(manifest: String, summary: JobRunner.Summary) {
        let r = summary.run
        self.manifest = manifest
        state = r.state
        run = r.id
        job = r.jobId
        upToDate = summary.upToDate
        outputs = summary.outputs.map(\.path)
        chapters = r.chapterCount
        paragraphs = r.paragraphCount
        words = r.wordCount
        durationSeconds = r.durationMs.map { Double($0) / 1000 }
        chunks = r.chunkCount
        chunksRendered = r.chunksRendered
        chunksReused = r.chunksReused
        skips = summary.skips
        phases = Dictionary(summary.phases.map { ($0.name, ($0.seconds * 1000).rounded() / 1000) }, uniquingKeysWith: { a, _ in a })
    }

    init(manifest: String, error: Error) {
        self.manifest = manifest
        let cancelled = (error as? RunError)?.isCancellation == true
        state = cancelled ? .cancelled : .failed
        self.error = FileError.describe(error)
    }
}
