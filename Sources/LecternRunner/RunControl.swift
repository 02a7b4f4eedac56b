import Foundation

/// Stops a run from outside: a signal handler or a lost lease calls ``cancel(_:)``; the runner
/// checks ``check()`` between stages, and the worker pool it registered stops at once (its
/// workers are killed, their unfinished chunks discarded).
public final class RunControl: @unchecked Sendable {
    // @unchecked Sendable is safe: `reason` and `pool` are only touched while holding `lock`.
    private let lock = NSLock()
    private var reason: String?
    private var pool: WorkerPool?

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

    func attach(_ pool: WorkerPool?) {
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
