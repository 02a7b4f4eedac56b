import Foundation
import Logging
import LecternCore
import LecternSchedule
import LecternStore

/// `lectern daemon`: keeps the manifests of a folder narrated — each on its cron `schedule`,
/// and (with `watch: true`) when its manifest or a source changes — through the same incremental
/// ``JobRunner`` as `lectern run`.
///
/// The loop is thin: every poll it rescans the folder, notices changed files, reads each job's
/// schedule row from the store, asks the pure ``Scheduler`` what to do, claims each run in the
/// store (so two daemons on one store start every due run, change and retry exactly once),
/// starts the claimed runs as tasks of their own, and sleeps until the scheduler's next wake
/// time, the next poll or the end of a run. Manifests are read and parsed on threads of their
/// own, once per version; one that fails is logged once and shown by `lectern status`.
///
/// After a crash: a job's latest run that a daemon started and that stopped before it ended
/// (its process died, or it was cancelled) is resumed first, with its trigger, from its finished
/// chunks; a watched change counts as served only once a run rendering it succeeded; a lease
/// whose holder died is taken over at once.
///
/// ``stop()`` (SIGTERM, SIGINT) stops accepting work and cancels running jobs cleanly (workers
/// stopped, runs recorded as cancelled, no half-written file), waiting at most
/// ``Options/stopTimeout``; ``reload()`` (SIGHUP) reloads every manifest and the configuration.
public final class Daemon: @unchecked Sendable {
    // @unchecked Sendable is safe: every mutable property is touched only while holding `lock`.

    public struct Options: Sendable {
        public var jobs: URL
        public var maxConcurrent = 1
        /// How long a watched file must stay unchanged before its job runs.
        public var debounce: TimeInterval = 2
        /// How often the folder and the watched files are looked at.
        public var pollInterval: TimeInterval = 1
        /// How long ``stop()`` waits for cancelled runs.
        public var stopTimeout: TimeInterval = 8
        /// Added to the clock (for tests that need a due time soon).
        public var clockOffset: TimeInterval = 0
        public var workers: Int?
        public var configDirectory: URL?
        /// The chunk folder hosts share: runs publish their chunks to the store's queue.
        public var sharedChunks: (any ChunkStore)?

        public init(jobs: URL) { self.jobs = jobs }
    }

    private let store: any JobStore
    private let logger: Logger
    private let options: Options
    private let lock = NSLock()
    /// Ends the loop's sleep: a run ended, a manifest was read, a stop or a reload.
    private let wakeUp = StopSignal()
    private var jobs: [String: DaemonJob] = [:]
    private var controls: [String: RunControl] = [:]
    private var stopping = false
    private var reloading = false
    private var awakeSince = Date()
    /// The manifest version last read (or being read) for each path, so each is read once.
    private var attempted: [String: String] = [:]
    private var loading: Set<String> = []
    private var parsed: [String: Parsed] = [:]

    public init(store: any JobStore, logger: Logger, options: Options) {
        self.store = store
        self.logger = logger
        self.options = options
    }

    private var now: Date { Date().addingTimeInterval(options.clockOffset) }

    /// Runs until ``stop()``; returns once the runs it started have ended (or the stop timeout passed).
    public func run() async throws {
        awakeSince = now
        logger.info("daemon started", metadata: ["jobs": "\(options.jobs.path)", "max_concurrent": "\(options.maxConcurrent)",
                                                 "pid": "\(getpid())"])
        while !isStopping {
            var wake: Date?
            do { wake = try await tick() } catch {
                // A busy or briefly unavailable store must not end the daemon: try again next poll.
                logger.error("poll failed", metadata: ["error": "\(error)"])
            }
            let wait = min(options.pollInterval, max(0, (wake ?? .distantFuture).timeIntervalSince(now)))
            await wakeUp.pause(wait)
        }
        let running = lock.withLock { controls.map { path, control in (jobs[path]?.name ?? path, control) } }
        for (name, control) in running {
            logger.notice("cancelling run", metadata: ["job": "\(name)"])
            control.cancel("the daemon is stopping")
        }
        // Each run's end wakes the loop.
        let deadline = Date().addingTimeInterval(options.stopTimeout)
        while lock.withLock({ !controls.isEmpty }), deadline.timeIntervalSinceNow > 0 {
            await wakeUp.pause(deadline.timeIntervalSinceNow)
        }
        if lock.withLock({ !controls.isEmpty }) {
            logger.error("runs did not stop in time", metadata: ["seconds": "\(options.stopTimeout)"])
        }
        logger.info("daemon stopped")
    }

    /// Stops accepting work and cancels the running jobs (safe from a signal handler's queue).
    public func stop() {
        lock.withLock { stopping = true }
        wakeUp.wake()
    }

    /// Reloads every manifest (and the configuration they use) at the next poll.
    public func reload() {
        lock.withLock { reloading = true }
        wakeUp.wake()
    }

    private var isStopping: Bool { lock.withLock { stopping } }

    /// One pass: rescan, decide, claim and start. Returns when the scheduler next wants to look.
    func tick() async throws -> Date? {
        let reload = lock.withLock {
            defer { reloading = false }
            return reloading
        }
        if reload { logger.notice("reloading manifests and configuration") }
        try await scan(reload: reload)

        let now = self.now
        let rows = try await store.schedules()
        // A job leased by any process (another daemon, a `lectern run`) counts as running.
        let leased = try await store.leasedJobIds()
        var inputs: [String: (JobPolicy, JobState)] = [:]
        for (path, job) in jobsSnapshot() {
            guard let policy = job.policy, let row = rows[job.jobId] else { continue }
            let state = JobState(firstSeen: row.firstSeen, servedThrough: row.servedThrough, running: job.running || leased.contains(job.jobId),
                                 failures: row.failures, lastFailure: row.lastFailureAt, lastTrigger: job.lastTrigger,
                                 changedAt: job.changedAt, lastRunStarted: job.lastRunStarted,
                                 interruptedRun: job.interruptedRun, interruptedTrigger: job.interruptedTrigger)
            inputs[path] = (policy, state)
        }

        let decision = Scheduler.decide(jobs: inputs, now: now, maxConcurrent: options.maxConcurrent, awakeSince: awakeSince)
        for action in decision.actions {
            switch action {
            case .skip(let path, let through):
                guard let job = job(path) else { continue }
                if try await store.claimDue(jobId: job.jobId, through: through) {
                    logger.notice("missed runs skipped (catchup: none)", metadata: ["job": "\(job.name)", "through": "\(through)"])
                }
            case .run(let path, let trigger, let reason, let through):
                guard let job = job(path), let row = rows[job.jobId] else { continue }
                if case .resume = reason { update(path) { $0.interruptedRun = nil } }
                if try await claim(job, row: row, reason: reason, through: through) {
                    start(job, trigger: trigger, reason: reason)
                } else if case .resume = reason {
                    // Another process resumed it or ran the job since: decide again next pass.
                    continue
                } else {
                    // Another daemon took it; its run serves the change too.
                    update(path) { $0.lastRunStarted = now }
                }
            }
        }
        for (path, job) in jobsSnapshot() {
            let next = job.policy?.schedule.flatMap { $0.nextDate(after: now, in: job.policy!.timeZone) }
            if next != job.recordedNextDue {
                try await store.setNextDue(jobId: job.jobId, next)
                update(path) { $0.recordedNextDue = next }
            }
        }
        return decision.wakeAt
    }

    /// Claims a run in the store; false when another daemon claimed it first.
    private func claim(_ job: DaemonJob, row: ScheduleRecord, reason: RunReason, through: Date?) async throws -> Bool {
        var claimed: Bool
        switch reason {
        case .retry: claimed = try await store.claimRetry(jobId: job.jobId, failures: row.failures)
        case .changed: claimed = try await store.claimChange(jobId: job.jobId, version: job.fingerprint)
        case .due, .catchUp:
            if let through { claimed = try await store.claimDue(jobId: job.jobId, through: through) } else { claimed = false }
        case .resume(let run):
            claimed = try await store.interruptedRun(jobId: job.jobId)?.id == run
            if claimed { claimed = try await store.claimResume(jobId: job.jobId, runId: run) }
        }
        // A run serves every due time and change up to its start.
        if claimed, let through, reason != .due(through) { _ = try await store.claimDue(jobId: job.jobId, through: through) }
        if claimed, job.policy?.watch == true { _ = try await store.claimChange(jobId: job.jobId, version: job.fingerprint) }
        return claimed
    }

    private func start(_ job: DaemonJob, trigger: Trigger, reason: RunReason) {
        let control = RunControl()
        let started = now
        lock.withLock {
            jobs[job.url.path]?.running = true
            jobs[job.url.path]?.lastRunStarted = started
            jobs[job.url.path]?.lastTrigger = trigger
            controls[job.url.path] = control
        }
        logger.info("run started", metadata: ["job": "\(job.name)", "trigger": "\(trigger.rawValue)", "reason": "\(Self.describe(reason))"])
        var configured = JobRunner(store: store, logger: logger, configDirectory: options.configDirectory, workers: options.workers)
        configured.sharedChunks = options.sharedChunks
        configured.control = control
        let runner = configured
        let version = job.policy?.watch == true ? job.fingerprint : nil
        Task { [self] in
            var failure: String?
            do {
                let summary = try await runner.run(manifest: job.url, trigger: trigger)
                logger.info(summary.upToDate ? "run finished, outputs already current" : "run finished",
                            metadata: ["job": "\(job.name)", "run": "\(summary.run.id ?? 0)",
                                       "chunks_rendered": "\(summary.run.chunksRendered)"])
            } catch {
                failure = "\(error)"
                if control.cancellation == nil {
                    logger.error("run failed", metadata: ["job": "\(job.name)", "error": "\(error)"])
                }
            }
            if control.cancellation == nil {
                var wasRetry = false
                if case .retry = reason { wasRetry = true }
                do { try await store.recordOutcome(jobId: job.jobId, error: failure, wasRetry: wasRetry, at: now, servedVersion: version) } catch {
                    logger.error("cannot record the run's outcome", metadata: ["job": "\(job.name)", "error": "\(error)"])
                }
            }
            lock.withLock {
                jobs[job.url.path]?.running = false
                controls[job.url.path] = nil
            }
            wakeUp.wake()
        }
    }

    /// Starts reading new and changed manifests (off this loop: a manifest that is slow to read
    /// or parse delays neither other jobs nor a stop), takes in those read since, forgets removed
    /// ones, and notices changes in watched files.
    private func scan(reload: Bool) async throws {
        let fm = FileManager.default
        let names = (try? fm.contentsOfDirectory(atPath: options.jobs.path)) ?? []
        let paths = Set(names.filter { !$0.hasPrefix(".") && ($0.hasSuffix(".yml") || $0.hasSuffix(".yaml")) }
            .map { options.jobs.appendingPathComponent($0).standardizedFileURL.path })
        for (path, job) in jobsSnapshot() where !paths.contains(path) {
            logger.notice("manifest removed", metadata: ["job": "\(job.name)", "manifest": "\(path)"])
            lock.withLock { jobs[path] = nil }
            try await store.removeSchedule(jobId: job.jobId)
        }
        let gone = lock.withLock {
            let gone = attempted.keys.filter { !paths.contains($0) }
            for path in gone { attempted[path] = nil }
            if reload { attempted = [:] }
            return gone
        }
        for path in gone { try await store.recordManifestError(manifestPath: path, name: nil, error: nil) }

        let now = self.now
        for (path, read) in takeParsed() where paths.contains(path) {
            let loaded = await apply(read, url: URL(fileURLWithPath: path), previous: job(path), now: now)
            lock.withLock { jobs[path] = loaded }
        }
        for path in paths.sorted() {
            let url = URL(fileURLWithPath: path)
            let stamp = DaemonJob.stamp(of: [url])
            let fresh = lock.withLock {
                let fresh = attempted[path] != stamp && !loading.contains(path)
                if fresh {
                    attempted[path] = stamp
                    loading.insert(path)
                }
                return fresh
            }
            if fresh {
                parse(url, stamp: stamp)
            } else if let known = job(path), known.manifestStamp == stamp, known.policy?.watch == true {
                let fingerprint = DaemonJob.stamp(of: known.watchedFiles)
                if fingerprint != known.fingerprint {
                    logger.info("change seen", metadata: ["job": "\(known.name)"])
                    update(path) {
                        $0.fingerprint = fingerprint
                        $0.changedAt = now
                    }
                }
            }
        }
    }

    /// A manifest as a loader thread read it.
    struct Parsed: Sendable {
        var stamp: String
        var result: Result<Manifest, any Error>
    }

    /// Reads and parses a manifest on a thread of its own, then wakes the loop.
    private func parse(_ url: URL, stamp: String) {
        let configDirectory = options.configDirectory
        Thread.detachNewThread { [self] in
            let result = Result<Manifest, any Error> {
                var loader = ManifestLoader(configDirectory: configDirectory)
                loader.checksFiles = false  // a missing source is the run's failure, retried and reported
                let manifest = try loader.load(url)
                if let expression = manifest.schedule { _ = try CronSchedule(expression) }
                return manifest
            }
            lock.withLock {
                loading.remove(url.path)
                parsed[url.path] = Parsed(stamp: stamp, result: result)
            }
            wakeUp.wake()
        }
    }

    private func takeParsed() -> [(String, Parsed)] {
        lock.lock()
        defer { lock.unlock() }
        let taken = parsed.sorted { $0.key < $1.key }
        parsed = [:]
        return taken
    }

    /// Turns a parsed manifest into a job (nil when it has no schedule and no watch). A manifest
    /// that failed is logged once per version and recorded for `lectern status`; a job loaded
    /// before keeps running on its last good version.
    private func apply(_ read: Parsed, url: URL, previous: DaemonJob?, now: Date) async -> DaemonJob? {
        let stamp = read.stamp
        do {
            let manifest = try read.result.get()
            let s = manifest.scheduling
            guard manifest.schedule != nil || s.watch else {
                logger.info("no schedule and no watch: not run by the daemon", metadata: ["manifest": "\(url.path)"])
                try await store.recordManifestError(manifestPath: url.path, name: nil, error: nil)
                if let previous { try await store.removeSchedule(jobId: previous.jobId) }
                return nil
            }
            let zone = s.timeZone.flatMap(TimeZone.init(identifier:)) ?? .current
            let policy = JobPolicy(schedule: try manifest.schedule.map { try CronSchedule($0) }, timeZone: zone, watch: s.watch,
                                   debounce: options.debounce, catchUp: s.catchUp,
                                   retry: RetryPolicy(limit: s.retryLimit, initialDelay: s.retryDelay, factor: 2, maxDelay: s.retryMaxDelay))
            let record = try await store.job(manifestPath: url.path, name: manifest.name, title: manifest.title.isEmpty ? nil : manifest.title)
            try await store.setManifestError(jobId: record.id!, nil)
            var job = DaemonJob(url: url, name: manifest.name, jobId: record.id!, manifestStamp: stamp, policy: policy,
                                watchedFiles: [url] + manifest.sources.map(\.url) + manifest.lexicons + (manifest.cover.map { [$0] } ?? []))
            job.fingerprint = DaemonJob.stamp(of: job.watchedFiles)
            var row = try await store.registerSchedule(jobId: job.jobId, expression: manifest.schedule, timeZone: s.timeZone, watch: s.watch,
                                                 watchVersion: job.fingerprint, now: now)
            if let previous {
                job.running = previous.running
                job.lastRunStarted = previous.lastRunStarted
                job.lastTrigger = previous.lastTrigger
                job.changedAt = previous.changedAt
                job.recordedNextDue = previous.recordedNextDue
                job.interruptedRun = previous.interruptedRun
                job.interruptedTrigger = previous.interruptedTrigger
                if s.watch, previous.fingerprint != job.fingerprint { job.changedAt = now }
                logger.info("manifest loaded", metadata: ["job": "\(job.name)", "manifest": "\(url.path)"])
            } else {
                // Runs left `running` by a process that died are recorded as interrupted (or
                // failed, with the error it could not record); the latest, if a daemon started
                // it, is resumed first.
                for run in try await store.settleOrphanedRuns(jobId: job.jobId) {
                    logger.notice("marked \(run.state.rawValue)", metadata: ["job": "\(job.name)", "run": "\(run.id ?? 0)", "pid": "\(run.pid)"])
                }
                if let stopped = try await store.interruptedRun(jobId: job.jobId) {
                    job.interruptedRun = stopped.id
                    job.interruptedTrigger = stopped.trigger
                }
                // A change claimed by a daemon that died before rendering it is not served.
                row = try await store.reopenUnservedChange(jobId: job.jobId) ?? row
                // Changed while no daemon watched: render what changed.
                if s.watch, let version = row.watchVersion, version != job.fingerprint { job.changedAt = now }
                logger.info("job added", metadata: ["job": "\(job.name)", "schedule": "\(manifest.schedule ?? "-")",
                                                    "time_zone": "\(zone.identifier)", "watch": "\(s.watch)"])
            }
            return job
        } catch let error as StoreError {
            // The store, not the manifest: try again next poll.
            logger.error("cannot register the job", metadata: ["manifest": "\(url.path)", "error": "\(error)"])
            lock.withLock { attempted[url.path] = nil }
            return previous
        } catch {
            logger.error("manifest not loaded", metadata: ["manifest": "\(url.path)", "error": "\(error)"])
            do {
                try await store.recordManifestError(manifestPath: url.path, name: url.deletingPathExtension().lastPathComponent, error: "\(error)")
            } catch {
                logger.error("cannot record the manifest's error", metadata: ["manifest": "\(url.path)", "error": "\(error)"])
            }
            var kept = previous
            kept?.manifestStamp = stamp
            return kept
        }
    }

    private func job(_ path: String) -> DaemonJob? {
        lock.lock()
        defer { lock.unlock() }
        return jobs[path]
    }

    private func jobsSnapshot() -> [String: DaemonJob] {
        lock.lock()
        defer { lock.unlock() }
        return jobs
    }

    private func update(_ path: String, _ body: (inout DaemonJob) -> Void) {
        lock.lock()
        if var job = jobs[path] {
            body(&job)
            jobs[path] = job
        }
        lock.unlock()
    }

    static func describe(_ reason: RunReason) -> String {
        switch reason {
        case .due(let date): return "due at \(date)"
        case .catchUp(let missed): return "catching up on runs missed from \(missed.lowerBound) to \(missed.upperBound)"
        case .retry(let attempt): return "retry \(attempt)"
        case .changed: return "files changed"
        case .resume(let run): return "resuming run \(run), which stopped before it ended"
        }
    }
}
