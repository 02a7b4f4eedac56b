import Foundation
import Logging
import LecternCore
import LecternRunner
import LecternStore

/// The runs this `serve` process renders: at most `maxConcurrent` at once, each through the same
/// ``JobRunner`` as `lectern run` (its lease, its row, its chunks on local workers or, with a
/// shared chunk folder, on `lectern worker`s anywhere).
///
/// Runs wait in the store, not here (``RunRequestRecord``): a start is a request queued in one
/// transaction with the job locked (a job with a run queued or under way refuses another, and
/// refuses an edit), and every `serve` on the store claims the oldest waiting request whenever it
/// has a free slot — so a queue outlives a crash or a restart and is shared by every `serve`. A
/// request claimed by a process that died is given back in its place, its run settled as
/// interrupted, and started again (resuming from its chunks) by whichever `serve` claims it.
///
/// A cancel request may reach any `serve` process on the store: it is recorded in the store
/// (``ServiceLedger/requestCancel(runId:reason:)``), and the process rendering the run looks for
/// requests every second (``watch()``).
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
    /// The runs this process renders, by job.
    private var active: [Int64: RunControl] = [:]
    private var runIds: [Int64: Int64] = [:]
    /// Slots taken or being filled.
    private var busy = 0
    /// Starts waiting to hear whether their request started here, by request.
    private var waiting: [Int64: AsyncStream<Result<RunRecord?, Error>>.Continuation] = [:]
    private var stopping = false

    init(store: any JobStore, logger: Logger, options: Options) {
        self.store = store
        self.logger = logger
        self.options = options
    }

    /// Whether the job has a run waiting for a slot (of any `serve` on the store).
    func isQueued(jobId: Int64) async throws -> Bool {
        try await store.runRequests().contains { $0.jobId == jobId && $0.holder == nil }
    }

    /// Queues a run of the job in the store and starts it here if a slot is free and it is next.
    ///
    /// - returns: the run's row once it has started here; nil when it waits (here or for any
    ///   `serve` on the store).
    /// - throws: ``ServeError`` 409 when a run of the job is queued or under way, anywhere; the
    ///   runner's error when the run could not start.
    func start(jobId: Int64) async throws -> RunRecord? {
        guard !stopping else { throw ServeError(.serviceUnavailable, "the service is stopping") }
        let request: RunRequestRecord
        switch try await store.requestRun(jobId: jobId) {
        case .busy(let reason): throw ServeError.conflict(reason + "; cancel it first, or wait for it to end")
        case .queued(let queued): request = queued
        }
        let (started, continuation) = AsyncStream<Result<RunRecord?, Error>>.makeStream()
        waiting[request.id] = continuation
        await fill()
        // Not claimed here (yet): it waits its turn.
        if let unclaimed = waiting.removeValue(forKey: request.id) { unclaimed.finish() }
        for await first in started { return try first.get() }
        return nil
    }

    /// Claims waiting requests while this process has a free slot.
    func fill() async {
        while !stopping, busy < options.maxConcurrent {
            busy += 1
            let claimed: RunRequestRecord?
            do { claimed = try await store.claimRunRequest(holder: ProcessIdentity.current) } catch {
                logger.warning("cannot take a queued run from the store", metadata: ["error": "\(error)"])
                claimed = nil
            }
            guard let request = claimed else {
                busy -= 1
                return
            }
            let control = RunControl()
            active[request.jobId] = control
            let report = waiting.removeValue(forKey: request.id)
            Task { await self.perform(request, control: control, report: report) }
        }
    }

    private func perform(_ request: RunRequestRecord, control: RunControl, report: AsyncStream<Result<RunRecord?, Error>>.Continuation?) async {
        let jobId = request.jobId
        defer { report?.finish() }
        do {
            guard let job = try await store.job(id: jobId) else { throw ServeError.notFound("job \(jobId)") }
            var runner = JobRunner(store: store, logger: logger, configDirectory: options.configDirectory, workers: options.workers)
            runner.sharedChunks = options.sharedChunks
            runner.control = control
            runner.warnings = { [logger] in logger.info("\($0)", metadata: ["job": "\(jobId)"]) }
            runner.runStarted = { run in
                report?.yield(.success(run))
                Task { await self.started(jobId: jobId, runId: run.id ?? 0) }
            }
            _ = try await runner.run(manifest: URL(fileURLWithPath: job.manifestPath), trigger: .api)
        } catch {
            report?.yield(.failure(error))
            logger.info("run ended", metadata: ["job": "\(jobId)", "error": "\(error)"])
        }
        // The run has ended (recorded as succeeded, failed or cancelled): its request goes. Should
        // the store refuse, the request stays claimed by this process and is resumed once it ends.
        do { try await store.endRunRequest(id: request.id) } catch {
            logger.warning("cannot remove an ended run's request from the store", metadata: ["job": "\(jobId)", "error": "\(error)"])
        }
        active[jobId] = nil
        runIds[jobId] = nil
        busy -= 1
        await fill()
    }

    private func started(jobId: Int64, runId: Int64) { if active[jobId] != nil { runIds[jobId] = runId } }

    /// Cancels the job's run: withdrawn from the queue when it waits, stopped when it renders here;
    /// false when neither (it may render in another `serve`).
    func cancel(jobId: Int64, reason: String) async throws -> Bool {
        if let control = active[jobId] {
            control.cancel(reason)
            return true
        }
        return try await store.withdrawRunRequest(jobId: jobId)
    }

    /// Cancels the runs whose cancellation was asked for in the store (by any `serve`).
    func applyCancelRequests() async {
        let ids = Array(runIds.values)
        guard !ids.isEmpty, let requests = try? await store.cancelRequests(runIds: ids) else { return }
        for (jobId, runId) in runIds {
            if let reason = requests[runId] { active[jobId]?.cancel(reason) }
        }
    }

    /// Gives back the requests claimed by processes that died (a `serve` killed, or its host
    /// gone): each job's run they left `running` is recorded as interrupted at once, and the
    /// request waits again in its place, to be resumed by the next free slot.
    func settleDeadClaims() async {
        guard let requests = try? await store.runRequests() else { return }
        let now = Date()
        for request in requests where request.holder != nil {
            let lease = try? await store.lease(jobId: request.jobId)
            guard request.claimIsDead(lease: lease, now: now), let holder = request.holder else { continue }
            do {
                let settled = try await store.settleOrphanedRuns(jobId: request.jobId)
                guard try await store.releaseRunRequest(id: request.id, holder: holder) else { continue }
                logger.warning("run of a process that ended queued again to resume",
                               metadata: ["job": "\(request.jobId)", "holder": "\(holder)", "interrupted": "\(settled.compactMap(\.id))"])
            } catch {
                logger.warning("cannot settle a run of a process that ended", metadata: ["job": "\(request.jobId)", "error": "\(error)"])
            }
        }
    }

    /// Records as interrupted the runs of `jobIds` left `running` by processes that died (runs
    /// started elsewhere than by a `serve` too), so the API shows them as they are at once.
    func settleOrphans(jobIds: [Int64]) async {
        for jobId in jobIds { _ = try? await store.settleOrphanedRuns(jobId: jobId) }
    }

    /// Every second, until the task is cancelled: ``applyCancelRequests()``, ``settleDeadClaims()``
    /// and ``fill()`` (a run queued by another `serve`, or freed by a dead one, starts here when
    /// this process has a slot).
    func watch() async {
        while !Task.isCancelled {
            await applyCancelRequests()
            await settleDeadClaims()
            await fill()
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// Stops taking runs and cancels every run here; returns once they have ended (at most
    /// `timeout`). Waiting runs stay queued in the store for the next `serve`.
    func stopAll(reason: String, timeout: TimeInterval = 8) async {
        stopping = true
        for control in active.values { control.cancel(reason) }
        let deadline = Date().addingTimeInterval(timeout)
        while !active.isEmpty, Date() < deadline { try? await Task.sleep(for: .milliseconds(50)) }
    }
}
