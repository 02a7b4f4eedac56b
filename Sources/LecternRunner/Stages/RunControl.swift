import Foundation

/// Something rendering chunks that a cancelled run stops at once (its workers killed, their
/// unfinished chunks discarded): the ``WorkerPool``, or the run's share of the ``QueueWorker``s.
protocol ChunkRendering: AnyObject, Sendable {
    func terminate(_ error: Error)
}

/// Stops a run from outside: a signal handler or a lost lease calls ``cancel(_:)``; the runner
/// checks ``check()`` between stages, and what renders its chunks stops at once.
public final class RunControl: @unchecked Sendable {
    // @unchecked Sendable is safe: `reason` and `pool` are only touched while holding `lock`.
    private let lock = NSLock()
    private var reason: String?
    private var pool: (any ChunkRendering)?

    public init() {}

    /// Why the run was stopped, once it was.
    public var cancellation: String? {
        lock.lock()
        defer { lock.unlock() }
        return reason
    }

    /// Stops the run (the first reason given is kept).
    public func cancel(_ why: String) {
        lock.lock()
        if reason == nil { reason = why }
        let pool = self.pool
        lock.unlock()
        pool?.terminate(RunError.cancelled(why))
    }

    /// - throws: ``RunError`` once the run was cancelled.
    public func check() throws {
        if let why = cancellation { throw RunError.cancelled(why) }
    }

    func attach(_ pool: (any ChunkRendering)?) {
        lock.lock()
        self.pool = pool
        let why = reason
        lock.unlock()
        if let why { pool?.terminate(RunError.cancelled(why)) }
    }
}

extension RunError {
    /// The error of a cancelled run.
    static func cancelled(_ why: String) -> RunError { RunError("cancelled (\(why))", isCancellation: true) }
}
