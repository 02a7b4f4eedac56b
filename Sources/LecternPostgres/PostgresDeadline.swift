import Foundation
import LecternCore
import LecternStore
import PostgresNIO
import Synchronization

/// The server did not answer before the operation's deadline.
struct DeadlinePassed: Error {}

extension EventLoopFuture where Value: Sendable {
    /// The future's value once it completes, or ``DeadlinePassed`` when `deadline` comes first.
    /// No thread waits: the caller's task is suspended until the event loop completes the future
    /// or fires the deadline's timer, whichever is first.
    func value(before deadline: Date) async throws -> Value {
        let loop = eventLoop
        let delay = TimeAmount.nanoseconds(Int64(max(0, deadline.timeIntervalSinceNow) * 1_000_000_000))
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, Error>) in
            let pending = ResumeOnce(continuation)
            let timer = loop.scheduleTask(in: delay) {
                pending.take()?.resume(throwing: DeadlinePassed())
            }
            whenComplete { result in
                timer.cancel()
                pending.take()?.resume(with: result)
            }
        }
    }
}

/// A continuation that the first of several callbacks takes and resumes.
private final class ResumeOnce<Value>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Value, Error>?>

    init(_ continuation: CheckedContinuation<Value, Error>) { self.continuation = Mutex(continuation) }

    /// The continuation for the first caller, nil for every later one.
    func take() -> CheckedContinuation<Value, Error>? { continuation.withLock { $0.take() } }
}
