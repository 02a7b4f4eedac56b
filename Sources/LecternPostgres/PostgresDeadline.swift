import Foundation
import LecternCore
import LecternStore
import PostgresNIO

/// A wait on the server that reached its deadline (``PostgresAddress/timeout``); the session
/// turns it into a ``StoreError`` naming the store and the deadline.
struct DeadlinePassed: Error {}

extension EventLoopFuture {
    /// Waits for the future until `deadline`, from an ordinary thread (never an event loop).
    ///
    /// The one place where the PostgreSQL store waits for postgres-nio: the ``JobStore`` API is
    /// synchronous and its callers are the runner's own threads (worker slots, heartbeats, the
    /// daemon's loop), none of them an event loop or a Swift concurrency thread. Waiting on an
    /// event loop would wait for itself, so that is refused outright.
    ///
    /// - throws: ``DeadlinePassed`` when the deadline comes first (the future may still complete
    ///   later: whoever owns what it produces must see to it), or the future's error.
    func wait(until deadline: Date) throws -> Value {
        precondition(!eventLoop.inEventLoop, "a PostgreSQL store operation must not run on a NIO event loop")
        let outcome = FutureOutcome<Value>()
        whenComplete { outcome.set($0) }
        return try outcome.get(until: deadline)
    }
}

/// A future's result, handed from its event loop to the waiting thread.
private final class FutureOutcome<Value>: @unchecked Sendable {
    // @unchecked Sendable is safe: `result` is only touched while holding `condition`.
    private let condition = NSCondition()
    private var result: Result<Value, Error>?

    func set(_ value: Result<Value, Error>) {
        condition.lock()
        result = value
        condition.broadcast()
        condition.unlock()
    }

    func get(until deadline: Date) throws -> Value {
        condition.lock()
        defer { condition.unlock() }
        while result == nil, condition.wait(until: deadline) {}
        guard let result else { throw DeadlinePassed() }
        return try result.get()
    }
}
