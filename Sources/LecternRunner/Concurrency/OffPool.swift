import Foundation

/// Blocking work — a worker process's pipe, a child process's exit — run on a thread of its
/// own, so that it never holds one of the few threads Swift's concurrency runs tasks on.
public enum OffPool {
    /// Runs `work` on a new thread and returns its result; the calling task is suspended meanwhile.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }

    /// Runs `work`, which does not throw, on a new thread and returns its result.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: work()) }
        }
    }
}
