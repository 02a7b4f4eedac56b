import ArgumentParser
import Foundation
import LecternSchedule
import LecternStore

/// `lectern status [JOB] [--json]`: jobs and their recent runs from the job store — per run its
/// state, counts, chunks rendered and reused, time taken, and why each re-rendered chapter
/// changed.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show jobs, their runs (state, progress, counts, outputs) and errors.",
        discussion: "Example: lectern status --json"
    )

    @Argument(help: "A job name or manifest path (default: all jobs).")
    var job: String?

    @Flag(help: "Print JSON.")
    var json = false

    @Option(help: "How many runs to show per job.")
    var runs = 5

    @OptionGroup var store: StoreOptions

    struct JobStatus: Encodable {
        var name: String
        /// What the listing calls the job: its name, or its manifest's path when another job
        /// in the store has the same name (two checkouts of one project, say).
        var label: String
        var manifest: String
        /// Whether the manifest is still there (a job of a deleted folder stays in the store).
        var manifestExists: Bool
        var title: String?
        /// Why `lectern daemon` cannot load the manifest (nil: it loads).
        var manifestError: String?
        /// What `lectern daemon` knows of the job (nil: no daemon has scheduled it).
        var schedule: ScheduleStatus?
        var runs: [RunStatus]
    }

    struct ScheduleStatus: Encodable {
        var expression: String?
        var timeZone: String?
        var watch: Bool
        var nextDue: Date?
        /// Consecutive failed runs, and the last one's error (cleared by a success).
        var failures: Int
        var lastError: String?
        var lastFailureAt: Date?
    }

    struct RunStatus: Encodable {
        var id: Int64
        var trigger: Trigger
        var state: RunState
        var startedAt: Date
        var endedAt: Date?
        var error: String?
        var chapters: Int?
        var paragraphs: Int?
        var words: Int?
        var skipped: Int?
        var wordsDone: Int
        var audioMsDone: Int
        var durationMs: Int?
        /// Wall-clock seconds the run took (so far, while running).
        var seconds: Double
        var chunks: Int?
        var chunksRendered: Int
        var chunksReused: Int
        var forced: Bool
        var resumesRun: Int64?
        var outputs: [String]
        /// Chapters the run rendered (not all from the cache), with why they changed.
        var rerendered: [ChapterStatus]
        var chapterList: [ChapterStatus]?
        /// The run's chunks in the store's queue (nil: none published, or the run ended).
        var queue: QueueDepth?
        /// Later runs that found this run's outputs current (folded into it, not listed), and
        /// when the last of them ran.
        var upToDateRuns: Int
        var lastUpToDateAt: Date?
    }

    /// A `lectern worker` as it last reported itself.
    struct WorkerStatus: Encodable {
        var id: String
        var host: String
        var pid: Int32
        var slots: Int
        var startedAt: Date
        /// Seconds since its last heartbeat.
        var heartbeatAge: Double
        var state: State

        /// `alive`, or `lost`: silent for more than three lease periods (killed, its host gone or
        /// cut off); `lectern gc` removes lost workers.
        enum State: String, Encodable {
            case alive, lost
        }
        var leaseSeconds: Double
        var chunk: String?
        var chunksDone: Int
    }

    struct Report: Encodable {
        var store: String
        var jobs: [JobStatus]
        var workers: [WorkerStatus]
    }

    struct ChapterStatus: Encodable {
        var number: Int
        var title: String
        var startMs: Int
        var durationMs: Int
        var contentHash: String
        var chunks: Int
        var chunksRendered: Int
        var change: String?
    }

    func run() async throws {
        await reportingErrors {
            let jobStore = try await store.open().store
            let allJobs = try await jobStore.jobs()
            // A name shared by several jobs is not enough to tell them apart: those are labelled by path.
            let named = Dictionary(grouping: allJobs, by: \.name)
            var jobs = allJobs
            if let job {
                let path = URL(fileURLWithPath: job).standardizedFileURL.path
                jobs = jobs.filter { $0.name == job || $0.manifestPath == path }
                guard !jobs.isEmpty else { throw ValidationError("no job named \(job) in \(jobStore.name)") }
            }
            let schedules = try await jobStore.schedules()
            let queue = try await jobStore.queueDepth()
            let now = Date()
            let workers = try await jobStore.workers().map {
                WorkerStatus(id: $0.id, host: $0.host, pid: $0.pid, slots: $0.slots, startedAt: $0.startedAt,
                             heartbeatAge: max(0, now.timeIntervalSince($0.heartbeatAt)), state: $0.isLost(at: now) ? .lost : .alive,
                             leaseSeconds: $0.leaseSeconds, chunk: $0.isLost(at: now) ? nil : $0.chunk, chunksDone: $0.chunksDone)
            }
            // Each job's recent runs and their chapters, read before the report is put together.
            var recordedRuns: [Int64: [RunRecord]] = [:], recordedChapters: [Int64: [ChapterRecord]] = [:]
            for j in jobs {
                let list = try await jobStore.runs(jobId: j.id!, limit: runs)
                recordedRuns[j.id!] = list
                for r in list { recordedChapters[r.id!] = try await jobStore.chapters(runId: r.id!) }
            }
            let statuses = jobs.map { j in
                JobStatus(name: j.name, label: named[j.name, default: []].count > 1 ? Self.shown(j.manifestPath) : j.name,
                          manifest: j.manifestPath, manifestExists: FileManager.default.fileExists(atPath: j.manifestPath), title: j.title, manifestError: j.manifestError, schedule: schedules[j.id!].map {
                    ScheduleStatus(expression: $0.expression, timeZone: $0.timeZone, watch: $0.watch, nextDue: $0.nextDue,
                                   failures: $0.failures, lastError: $0.lastError, lastFailureAt: $0.lastFailureAt)
                }, runs: recordedRuns[j.id!, default: []].map { recorded in
                    // A run whose process died is shown as it ended, as the next run will record it.
                    var r = recorded
                    if r.isOrphaned {
                        let note = FailureNote(store: jobStore, runId: r.id!).read()
                        r.state = note == nil ? .interrupted : .failed
                        r.error = note ?? "the process running it (pid \(r.pid)) stopped without finishing"
                    }
                    let chapters = recordedChapters[r.id!, default: []].map {
                        ChapterStatus(number: $0.number, title: $0.title, startMs: $0.startMs, durationMs: $0.durationMs,
                                      contentHash: $0.contentHash, chunks: $0.chunkCount, chunksRendered: $0.chunksRendered, change: $0.change)
                    }
                    return RunStatus(id: r.id!, trigger: r.trigger, state: r.state, startedAt: r.startedAt, endedAt: r.endedAt,
                                     error: r.error, chapters: r.chapterCount, paragraphs: r.paragraphCount, words: r.wordCount,
                                     skipped: r.skippedCount, wordsDone: r.wordsDone, audioMsDone: r.audioMsDone, durationMs: r.durationMs,
                                     seconds: (r.endedAt ?? Date()).timeIntervalSince(r.startedAt), chunks: r.chunkCount,
                                     chunksRendered: r.chunksRendered, chunksReused: r.chunksReused, forced: r.forced,
                                     resumesRun: r.resumesRunId, outputs: Self.outputs(of: r),
                                     rerendered: chapters.filter { $0.chunksRendered > 0 },
                                     chapterList: self.job == nil ? nil : chapters, queue: r.state == .running ? queue[r.id!] : nil,
                                     upToDateRuns: r.upToDateRuns, lastUpToDateAt: r.lastUpToDateAt)
                })
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                encoder.dateEncodingStrategy = .iso8601
                print(String(decoding: try encoder.encode(Report(store: jobStore.name, jobs: statuses, workers: workers)), as: UTF8.self))
                return
            }
            if statuses.isEmpty { print("no jobs in \(jobStore.name)") }
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = .current
            for j in statuses {
                print("\(j.label)  \(j.title ?? "")" + (j.label == j.name ? "  (\(j.manifest))" : ""))
                if !j.manifestExists { print("  manifest no longer exists: \(j.manifest)") }
                if let error = j.manifestError { print("  manifest not loaded: \(error)") }
                if let s = j.schedule {
                    var line = "  schedule: " + [s.expression.map { "\($0) (\(s.timeZone ?? "local time"))" }, s.watch ? "watching its files" : nil]
                        .compactMap { $0 }.joined(separator: ", ")
                    if let next = s.nextDue { line += "; next due \(formatter.string(from: next))" }
                    print(line)
                    if s.failures > 0 {
                        print("  failing: \(s.failures) failed run\(s.failures == 1 ? "" : "s") in a row; last error: \(s.lastError ?? "?")")
                    }
                }
                if let last = j.runs.first { print("  last run: \(last.state) (\(last.trigger), \(formatter.string(from: last.startedAt)))") }
                for r in j.runs {
                    var line = "  run \(r.id)  \(r.state)  \(r.trigger)  \(formatter.string(from: r.startedAt))  " + clock(r.seconds)
                    if let words = r.words, r.state == .running { line += "  \(r.wordsDone)/\(words) words" }
                    if let d = r.durationMs { line += String(format: "  %d chapters, %d words, %.1f min", r.chapters ?? 0, r.words ?? 0, Double(d) / 60000) }
                    print(line)
                    if let chunks = r.chunks {
                        var detail = "    chunks: \(r.chunksRendered) rendered, \(r.chunksReused) reused of \(chunks)"
                        if r.forced { detail += " (--force)" }
                        if let resumed = r.resumesRun { detail += "; continues run \(resumed)" }
                        print(detail)
                    }
                    if r.upToDateRuns > 0, let last = r.lastUpToDateAt {
                        print("    up to date \(r.upToDateRuns) more time\(r.upToDateRuns == 1 ? "" : "s"), last \(formatter.string(from: last))")
                    }
                    if let q = r.queue {
                        print("    queue: \(q.queued) waiting, \(q.claimed) being rendered by workers, \(q.done) done")
                        if let e = q.lastError { print("    retrying a chunk after: \(e)") }
                    }
                    for c in r.rerendered {
                        print("    re-rendered chapter \(c.number) \"\(c.title)\" (\(c.chunksRendered) of \(c.chunks) chunks): \(c.change ?? "?")")
                    }
                    if let e = r.error { print("    error: \(e)") }
                    for o in r.outputs { print("    \(o)") }
                }
            }
            if !workers.isEmpty { print("workers:") }
            for w in workers {
                if w.state == .lost {
                    print(String(format: "  %@ pid %d  lost: no heartbeat for %.0f s (over 3 lease periods of %.0f s); `lectern gc` removes it",
                                 w.host, w.pid, w.heartbeatAge, w.leaseSeconds))
                    continue
                }
                print(String(format: "  %@ pid %d  %d slot%@  heartbeat %.0f s ago  %d chunks done", w.host, w.pid, w.slots, w.slots == 1 ? "" : "s",
                             w.heartbeatAge, w.chunksDone) + (w.chunk.map { "  rendering \($0.prefix(12))" } ?? ""))
            }
        }
    }

    /// A manifest's path as the listing shows it: relative to the current folder when inside it.
    static func shown(_ path: String) -> String {
        let here = FileManager.default.currentDirectoryPath
        let prefix = here.hasSuffix("/") ? here : here + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// Every file a run wrote (MP3, sidecar, VTT, SRT, read-along page, EPUB): the names its output
    /// stamp lists (`name size mtime` a line), in the MP3's folder; else the MP3 and the sidecar.
    static func outputs(of run: RunRecord) -> [String] {
        guard let stamp = run.outputStamp, let mp3 = run.mp3Path else { return [run.mp3Path, run.timingsPath].compactMap { $0 } }
        let folder = URL(fileURLWithPath: mp3).deletingLastPathComponent()
        return stamp.split(separator: "\n").compactMap { line in
            var words = line.split(separator: " ", omittingEmptySubsequences: false)
            guard words.count >= 2 else { return nil }
            words.removeLast(words.last == "missing" ? 1 : 2)
            return folder.appendingPathComponent(words.joined(separator: " ")).path
        }
    }
}
