import Foundation
import LecternCore
import LecternStore

/// Stage 5, record: the run's row as succeeded — duration, outputs and their stamp — and a row per
/// chapter saying what changed since the last successful run and how many of its chunks were
/// rendered; or, when the outputs were already current, the last run's chapters, nothing written.
enum RunFinish {
    static func rendered(runner: JobRunner, planned: RunPlan, render: RunRender, outputs: [URL],
                         context: inout RunRecording.Context) async throws -> JobRunner.Summary {
        let (manifest, plan, rendered, cached) = (planned.manifest, planned.plan, render.rendered, planned.cached)
        let sampleRate = planned.engine.sampleRate
        let ms = { (sample: Int) in Int((Double(sample) * 1000 / Double(sampleRate)).rounded()) }
        var run = context.run
        run.state = .succeeded
        run.endedAt = Date()
        run.sampleCount = rendered.sampleCount
        run.durationMs = ms(rendered.sampleCount)
        run.wordsDone = plan.wordCount
        run.audioMsDone = ms(rendered.sampleCount)
        run.mp3Path = manifest.mp3URL.path
        run.timingsPath = manifest.timings.contains(.json) ? manifest.timingsURL.path : nil
        run.outputStamp = OutputFiles.stamp(outputs)
        let previous = if let last = context.lastSuccess { try await runner.store.chapters(runId: last.id!) } else { [ChapterRecord]() }
        let chunkCounts = Dictionary(grouping: planned.renderer.chunks, by: { plan.chapters[$0.chapter].number })
        let chapters = rendered.chapters.map { span in
            let chunks = chunkCounts[span.number] ?? []
            let renderedChunks = chunks.filter { cached[$0.index] == nil }.count
            let f = span.fingerprint
            return ChapterRecord(runId: run.id!, number: span.number, title: span.title, contentHash: f.content,
                                 startMs: ms(span.startSample), durationMs: ms(span.startSample + span.sampleCount) - ms(span.startSample),
                                 sampleCount: span.sampleCount, startSample: span.startSample, textHash: f.text,
                                 voiceHash: f.voice, pauseHash: f.pause, settingsHash: f.settings, chunkCount: chunks.count,
                                 chunksRendered: renderedChunks,
                                 change: f.change(among: previous, number: span.number, rendered: renderedChunks > 0, forced: runner.force))
        }
        try await runner.store.finish(run, chapters: chapters)
        context.run = run
        runner.logger.info("finished", metadata: ["job": "\(manifest.name)", "duration_ms": "\(run.durationMs ?? 0)"])
        return JobRunner.Summary(run: run, outputs: outputs, upToDate: false, phases: [])
    }

    /// Records a run that found its outputs current: nothing written, every chunk reused. It is
    /// not a run of its own in the store: it is folded into the run that made the outputs (a
    /// count and the time of the last such run), so `lectern status` lists the runs that changed
    /// something. The summary tells what this run did (nothing rendered, nothing written) under
    /// the id of the run it was folded into.
    static func upToDate(runner: JobRunner, outputs: [URL], context: inout RunRecording.Context) async throws -> JobRunner.Summary {
        let last = context.lastSuccess!
        let confirmed = try await runner.store.foldUpToDate(context.run, into: last.id!, at: Date())
        var run = context.run
        run.id = confirmed.id
        run.state = .succeeded
        run.endedAt = confirmed.lastUpToDateAt
        run.sampleCount = last.sampleCount
        run.durationMs = last.durationMs
        run.wordsDone = run.wordCount ?? 0
        run.audioMsDone = last.durationMs ?? 0
        run.mp3Path = last.mp3Path
        run.timingsPath = last.timingsPath
        run.outputStamp = last.outputStamp
        run.upToDateRuns = confirmed.upToDateRuns
        run.lastUpToDateAt = confirmed.lastUpToDateAt
        context.run = run
        runner.logger.info("up to date", metadata: ["run": "\(confirmed.id ?? 0)", "times": "\(confirmed.upToDateRuns)"])
        return JobRunner.Summary(run: run, outputs: outputs, upToDate: true, phases: [])
    }
}
