import Foundation
import LecternCore
import LecternExport
import LecternStore

/// Stage 2, render: the chunks not in the cache are rendered on a pool of worker processes (or in
/// this process, ``JobRunner/rendersInProcess``; each cached and recorded as it finishes), or
/// through the store's chunk queue when chunks are shared between hosts (``QueueRoute``), and the
/// whole book is laid out on its timeline, writing the JSON sidecar as it goes; progress reaches
/// the caller and, once a second, the run's row.
struct RunRender {
    let rendered: BookRenderer.Result
    /// The sidecar, finished by the export stage (nil when the job wants no timings).
    let sidecar: TimingSidecarWriter?
    /// Where chunks and chapter MP3s are written before they move; removed with the run.
    let workDirectory: URL

    init(runner: JobRunner, planned: RunPlan, context: inout RunRecording.Context) async throws {
        let (manifest, engine, cached) = (planned.manifest, planned.engine, planned.cached)
        workDirectory = try runner.cache.temporaryDirectory()
        context.temporaries.append(workDirectory)
        let control = context.control
        let route: BookRenderer.Route
        let choice = RenderRoute(sharesChunks: runner.sharedChunks != nil, inProcess: runner.rendersInProcess, workers: runner.workers,
                                 processorCount: ProcessInfo.processInfo.activeProcessorCount)
        if case .queue(let localWorkers) = choice, let shared = runner.sharedChunks {
            route = .queue(QueueRoute(store: runner.store, chunks: shared, localWorkers: localWorkers,
                                      priority: manifest.scheduling.priority, chunkAttempts: manifest.scheduling.chunkAttempts,
                                      leaseDuration: runner.chunkLeaseDuration, storePatience: runner.storePatience,
                                      executable: runner.workerExecutable, control: control, logger: runner.logger))
        } else {
            let local: any LocalChunkRendering = choice == .inProcess
                ? InProcessRenderer() : WorkerPool(executable: runner.workerExecutable, count: runner.workers, logger: runner.logger)
            control.attach(local)
            route = .local(local)
        }
        defer { control.attach(nil) }
        // The JSON sidecar is written whenever any timing export is wanted: the others come from it.
        sidecar = try !manifest.timings.isEmpty ? TimingSidecarWriter(
            url: manifest.timingsURL, title: manifest.title, author: manifest.author,
            audio: manifest.listeningURL.lastPathComponent, sampleRate: engine.sampleRate) : nil
        do {
            let started = Date()
            var lastUpdate = Date.distantPast
            let wordCount = planned.plan.wordCount  // once: counting per chunk made long books quadratic
            var run = context.run
            let (store, progress) = (runner.store, runner.progress)
            rendered = try await planned.renderer.render(cached: cached, route: route, runId: run.id!, temporaryDirectory: workDirectory,
                                                   sidecar: sidecar) { p in
                progress?(RunProgress(wordsDone: p.wordsDone, wordCount: wordCount,
                                      audioSecondsDone: Double(p.samplesDone) / Double(engine.sampleRate),
                                      elapsed: Date().timeIntervalSince(started), chunksDone: p.chunksDone, chunkCount: p.chunkCount,
                                      audioSecondsReused: Double(p.samplesReused) / Double(engine.sampleRate)))
                run.chunksRendered = p.chunksDone - cached.count
                if Date().timeIntervalSince(lastUpdate) >= 1 || p.chunksDone == p.chunkCount {
                    run.wordsDone = p.wordsDone
                    run.audioMsDone = p.samplesDone * 1000 / engine.sampleRate
                    // Progress only (the run's end is recorded in full): a store that does not
                    // answer for a moment does not fail the run here.
                    try? await store.update(run)
                    lastUpdate = Date()
                }
            }
            context.run = run
            try control.check()
        } catch {
            sidecar?.discard()
            throw error
        }
    }
}
