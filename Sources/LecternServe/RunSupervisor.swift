import Foundation
import Logging
import LecternCore
import LecternRunner
import LecternStore

/// The runs this `serve` process renders: at most `maxConcurrent` at once, the rest queued in
/// order; each through the same ``JobRunner`` as `lectern run` (its lease, its row, its chunks
/// on local workers or, with a shared chunk folder, on `lectern worker`s anywhere).
///
/// A cancel request may reach any `serve` process on the store: it is recorded in the store
/// (``ServiceLedger/requestCancel(runId:reason:)``), and the process rendering the run looks for
/// requests every second (``watchCancels()``).
actor RunSupervisor {
    struct Options: Sendable {
        var maxConcurrent = 1
        var workers: Int?
        var sharedChunks: (any ChunkStore)?
        var configDirectory: URL?
    }

    private let store: any JobStore
    private let logger: Logger
    private let options: Options
    private var active: [Int64: RunControl] = [:]
    private var runIds: [Int64: Int64] = [:]
    /// Runs holding a slot.
    private var busy = 0
    /// Queued jobs in order, with the continuation of each once its task waits.
    private var waitOrder: [Int64] = []
    private var waiters: [Int64: CheckedContinuation<Bool, Never>] = [:]
    /// Queued jobs given a slot (true) or cancelled (false) before their task waited.
    private var decided: [Int64: Bool] = [:]
    private var stopping = false

    init(store: any JobStore, logger: Logger, options: Options) {
        self.store = store
        self.logger = logger
        self.options = options
    }

    func isQueued(jobId: Int64) -> Bool { waitOrder.contains(jobId) }
    func isActive(jobId: Int64) -> Bool { active[jobId] != nil || isQueued(jobId: jobId) }

    /// Starts a run of the job, or queues it when every slot is taken.
    ///
    /// - returns: the run's row once it has started; nil when it is queued.
    /// - throws: ``ServeError`` 409 when the job is running or queued here or leased by another
    ///   process; the runner's error when the run could not start.
    func start(jobId: Int64, manifestURL: URL) async throws -> RunRecord? {
        guard !stopping else { throw ServeError(.serviceUnavailable, "the service is stopping") }
        guard !isActive(jobId: jobId) else { throw ServeError.conflict("the job is already running or queued") }
        if let lease = try await store.lease(jobId: jobId), lease.expiresAt > Date(),
           ProcessIdentity(lease.holder)?.isAlive ?? true {
            throw ServeError.conflict("the job is being rendered by another process (\(lease.holder)); cancel that run first")
        }
        // Asked again: another start of the job may have come in while the store answered.
        guard !stopping, !isActive(jobId: jobId) else { throw ServeError.conflict("the job is already running or queued") }
        let control = RunControl()
        active[jobId] = control
        let (started, continuation) = AsyncStream<Result<RunRecord?, Error>>.makeStream()
        let queued = busy >= options.maxConcurrent
        if queued {
            waitOrder.append(jobId)
            continuation.yield(.success(nil))
        } else {
            busy += 1
        }
        Task { await self.perform(jobId: jobId, manifestURL: manifestURL, control: control, queued: queued, report: continuation) }
        for await first in started { return try first.get() }
        return nil
    }

    private func perform(jobId: Int64, manifestURL: URL, control: RunControl, queued: Bool,
                         report: AsyncStream<Result<RunRecord?, Error>>.Continuation) async {
        defer { report.finish() }
        if queued {
            let go: Bool
            if let early = decided.removeValue(forKey: jobId) { go = early } else {
                go = await withCheckedContinuation { continuation in waiters[jobId] = continuation }
            }
            guard go, control.cancellation == nil else {
                if go { release() }
                active[jobId] = nil
                return
            }
        }
        var runner = JobRunner(store: store, logger: logger, configDirectory: options.configDirectory, workers: options.workers)
        runner.sharedChunks = options.sharedChunks
        runner.control = control
        runner.warnings = { [logger] in logger.info("\($0)", metadata: ["job": "\(jobId)"]) }
        runner.runStarted = { run in
            report.yield(.success(run))
            Task { await self.started(jobId: jobId, runId: run.id ?? 0) }
        }
        do {
            _ = try await runner.run(manifest: manifestURL, trigger: "api")
        } catch {
            report.yield(.failure(error))
            logger.info("run ended", metadata: ["job": "\(jobId)", "error": "\(error)"])
        }
        finish(jobId: jobId)
    }

    private func started(jobId: Int64, runId: Int64) { if active[jobId] != nil { runIds[jobId] = runId } }

    private func finish(jobId: Int64) {
        active[jobId] = nil
        runIds[jobId] = nil
        release()
    }

    /// Gives a finished run's slot to the first queued job, or frees it.
    private func release() {
        guard !waitOrder.isEmpty, !stopping else {
            busy -= 1
            return
        }
        decide(waitOrder.removeFirst(), true)
    }

    private func decide(_ jobId: Int64, _ go: Bool) {
        if let waiter = waiters.removeValue(forKey: jobId) { waiter.resume(returning: go) } else { decided[jobId] = go }
    }

    /// Cancels the job's run here (queued or rendering); false when this process has none.
    func cancel(jobId: Int64, reason: String) -> Bool {
        guard let control = active[jobId] else { return false }
        control.cancel(reason)
        if let index = waitOrder.firstIndex(of: jobId) {
            waitOrder.remove(at: index)
            decide(jobId, false)
        }
        return true
    }

    /// Cancels the runs whose cancellation was asked for in the store (by any `serve`).
    func applyCancelRequests() async {
        let ids = Array(runIds.values)
        guard !ids.isEmpty, let requests = try? await store.cancelRequests(runIds: ids) else { return }
        for (jobId, runId) in runIds {
            if let reason = requests[runId] { _ = cancel(jobId: jobId, reason: reason) }
        }
    }

    /// Every second, until the task is cancelled: ``applyCancelRequests()``.
    func watchCancels() async {
        while !Task.isCancelled {
            await applyCancelRequests()
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// Stops taking runs and cancels every run here; returns once they have ended (at most `timeout`).
    func stopAll(reason: String, timeout: TimeInterval = 8) async {
        stopping = true
        for (jobId, _) in active { _ = cancel(jobId: jobId, reason: reason) }
        let deadline = Date().addingTimeInterval(timeout)
        while !active.isEmpty, Date() < deadline { try? await Task.sleep(for: .milliseconds(50)) }
    }
}
