import Foundation
import Logging
import LecternCore
import LecternSchedule
import LecternStore

/// The first and last of a run's bookkeeping: takes the job's lease (refused while a live process
/// holds it; a dead holder's runs are marked interrupted), starts the run's row, reserves its
/// failure note, keeps the lease alive by heartbeat, and — whatever the stages between throw —
/// records the run as failed or cancelled with its message (in the note when the store cannot
/// take it), after freeing the run's temporary files.
struct RunRecording {
    let store: any JobStore
    let logger: Logger
    let leaseDuration: TimeInterval
    /// Told the run's row as soon as it exists (`lectern serve` answers with it).
    var started: (@Sendable (RunRecord) -> Void)? = nil

    /// What the stages need of the run in progress.
    struct Context {
        var run: RunRecord
        let job: JobRecord
        /// The job's last successful run, the base of incremental rendering.
        let lastSuccess: RunRecord?
        let control: RunControl
        /// Folders and files removed when the run ends, however it ends.
        var temporaries: [URL] = []
    }

    /// The run a new run resumes: the job's latest stopped run (interrupted, cancelled or failed)
    /// when it came after its latest success; nil when there is none or the job succeeded since.
    static func resumedRun(stopped: RunRecord?, lastSuccess: RunRecord?) -> Int64? {
        stopped.flatMap { s in (s.id ?? 0) > (lastSuccess?.id ?? 0) ? s.id : nil }
    }

    /// Runs `body` as the run of the job of `manifestURL`.
    ///
    /// - throws: ``RunError`` without recording a run when another process holds the job; else
    ///   the error of `body`, once the run is recorded as failed or cancelled.
    func record<T>(manifestURL: URL, trigger: Trigger, force: Bool, control given: RunControl?,
                   _ body: (inout Context) async throws -> T) async throws -> T {
        let job = try await store.job(manifestPath: manifestURL.path, name: manifestURL.deletingPathExtension().lastPathComponent, title: nil)
        let holder = ProcessIdentity.current
        switch try await store.acquireLease(jobId: job.id!, holder: holder, duration: leaseDuration) {
        case .held(let lease):
            throw RunError("job \(job.name) is already being rendered by process \(ProcessIdentity(lease.holder)?.pid ?? 0)"
                           + (lease.runId.map { " (run \($0))" } ?? "") + "; wait for it to finish, or stop it, and run again",
                           isHeldElsewhere: true)
        case .acquired(_, let interrupted):
            for stale in interrupted {
                logger.warning("marked interrupted", metadata: ["job": "\(job.name)", "run": "\(stale.id ?? 0)", "pid": "\(stale.pid)"])
            }
        }
        do {
            let result = try await recordLeased(job: job, holder: holder, trigger: trigger, force: force, control: given, body)
            try? await store.releaseLease(jobId: job.id!, holder: holder)
            return result
        } catch {
            try? await store.releaseLease(jobId: job.id!, holder: holder)
            throw error
        }
    }

    /// The run itself, while `holder` holds the job's lease.
    private func recordLeased<T>(job: JobRecord, holder: ProcessIdentity, trigger: Trigger, force: Bool, control given: RunControl?,
                                 _ body: (inout Context) async throws -> T) async throws -> T {
        let lastSuccess = try await store.latestRun(jobId: job.id!, states: [.succeeded])
        let stopped = try await store.latestRun(jobId: job.id!, states: [.interrupted, .cancelled, .failed])
        let resumes = Self.resumedRun(stopped: stopped, lastSuccess: lastSuccess)
        let run = try await store.startRun(job: job, trigger: trigger, resumes: resumes, forced: force)
        started?(run)
        // Room for the run's error, should the store be unable to take it (a full disk).
        let note = FailureNote(store: store, runId: run.id!)
        note.reserve()
        var keepNote = false
        defer { if !keepNote { note.remove() } }
        // Without a caller's control, the run still needs one: a lost lease must stop it.
        let control = given ?? RunControl()
        let heartbeat = LeaseHeartbeat(store: store, jobId: job.id!, holder: holder, duration: leaseDuration) {
            control.cancel("another process took over the lease on job \(job.name)")
        }
        defer { heartbeat.stop() }
        var context = Context(run: run, job: job, lastSuccess: lastSuccess, control: control)
        defer { for t in context.temporaries { try? FileManager.default.removeItem(at: t) } }
        do {
            try await store.attachLease(jobId: job.id!, holder: holder, runId: run.id!)
            return try await body(&context)
        } catch {
            let cancelled = (error as? RunError)?.isCancellation == true || control.cancellation != nil
            context.run.state = cancelled ? .cancelled : .failed
            context.run.endedAt = Date()
            context.run.error = FileError.describe(error)
            // Free what this run holds on disk first: the store may share the disk it filled.
            for t in context.temporaries { try? FileManager.default.removeItem(at: t) }
            context.temporaries = []
            do { try await store.update(context.run) } catch let recording {
                // The next process to take the job records it from the note.
                keepNote = note.write(context.run.error!)
                logger.error("cannot record the run's end", metadata: ["run": "\(context.run.id ?? 0)", "error": "\(recording)"])
            }
            throw error
        }
    }
}
