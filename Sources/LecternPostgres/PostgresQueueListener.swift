import Foundation
import LecternCore
import LecternStore
import PostgresNIO
import Synchronization

/// A second connection of a ``PostgresJobStore`` that `LISTEN`s on `lectern_queue`, where the
/// queue's changes are announced, so that idle workers and waiting runs wake at once. Opened on
/// the first wait; when it cannot be opened (or is lost), a wait is a short sleep and the
/// callers' polling finds the change.
final class PostgresQueueListener: Sendable {
    static let channel = "lectern_queue"
    let address: PostgresAddress
    /// Held while the listening connection is opened or closed.
    private let connecting = AsyncGate()
    private let state = Mutex(State())

    private struct State {
        var connection: PostgresConnection?
        /// Notifications received so far, and the count each waiting task's last wait returned
        /// at: a notification wakes every waiter (several slots of a worker, a run waiting for
        /// its chunks), and one that arrives between a task's waits is not missed.
        var generation = 0
        var seen: [Int: Int] = [:]
        var waiters: [UInt64: Waiter] = [:]
        var lastId: UInt64 = 0
    }

    private struct Waiter {
        let continuation: CheckedContinuation<Void, Never>
        let timer: Task<Void, Never>
    }

    init(address: PostgresAddress) { self.address = address }

    deinit { PostgresSession.abandon(state.withLock { $0.connection }) }

    /// Returns when a notification arrives (or one arrived since this task's last wait
    /// returned), or when `timeout` passes.
    func wait(timeout: TimeInterval) async {
        guard await listening() else {
            try? await Task.sleep(for: .seconds(min(timeout, 0.2)))
            return
        }
        let me = withUnsafeCurrentTask { $0?.hashValue } ?? 0
        let id = state.withLock { state in
            state.lastId += 1
            return state.lastId
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let timer = Task { [weak self] in
                try? await Task.sleep(for: .seconds(max(0, timeout)))
                if !Task.isCancelled { self?.wake(id) }
            }
            let waits = state.withLock { state in
                guard state.generation == state.seen[me] ?? state.generation else { return false }
                state.waiters[id] = Waiter(continuation: continuation, timer: timer)
                return true
            }
            if !waits {
                timer.cancel()
                continuation.resume()
            }
        }
        state.withLock { $0.seen[me] = $0.generation }
    }

    /// Opens the listening connection if needed; false when it cannot.
    private func listening() async -> Bool {
        await connecting.holding {
            if let connection = state.withLock({ $0.connection }), !connection.isClosed { return true }
            guard let fresh = try? await PostgresSession.connect(address) else { return false }
            fresh.addListener(channel: Self.channel) { [weak self] _, _ in self?.notified() }
            do {
                _ = try await fresh.query("LISTEN lectern_queue", logger: PostgresSession.logger)
                    .value(before: Date().addingTimeInterval(address.timeout))
            } catch {
                PostgresSession.abandon(fresh)
                return false
            }
            state.withLock { $0.connection = fresh }
            return true
        }
    }

    /// A notification: every waiter wakes.
    private func notified() {
        let waiters = state.withLock { state in
            state.generation += 1
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters {
            waiter.timer.cancel()
            waiter.continuation.resume()
        }
    }

    /// The waiter `id`'s time is up.
    private func wake(_ id: UInt64) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume()
    }

    func close() async {
        await connecting.holding {
            PostgresSession.abandon(state.withLock { state in
                defer { state.connection = nil }
                return state.connection
            })
        }
    }
}
