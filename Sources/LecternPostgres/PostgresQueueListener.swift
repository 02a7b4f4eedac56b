import Foundation
import LecternCore
import LecternStore
import PostgresNIO

/// A second connection of a ``PostgresJobStore`` that `LISTEN`s on `lectern_queue`, where the
/// queue's changes are announced, so that idle workers and waiting runs wake at once. Opened on
/// the first wait; when it cannot be opened (or is lost), a wait is a short sleep and the
/// callers' polling finds the change.
final class PostgresQueueListener: @unchecked Sendable {
    // @unchecked Sendable is safe: `connection` is only touched holding `connecting`, and
    // `generation` and `seen` holding `condition` (never held while waiting for the server: the notification
    // handler takes it on the event loop).
    static let channel = "lectern_queue"
    let address: PostgresAddress
    private let connecting = NSLock()
    private let condition = NSCondition()
    private var connection: PostgresConnection?
    /// Notifications received so far, and the count each waiting thread's last wait returned at:
    /// a notification wakes every waiter (several slots of a worker, a run waiting for its
    /// chunks), and one that arrives between a thread's waits is not missed.
    private var generation = 0
    private var seen: [ObjectIdentifier: Int] = [:]

    init(address: PostgresAddress) { self.address = address }

    deinit { PostgresSession.abandon(connection) }

    /// Returns when a notification arrives (or one arrived since this thread's last wait
    /// returned), or when `timeout` passes.
    func wait(timeout: TimeInterval) {
        let deadline = Date().addingTimeInterval(timeout)
        guard listening() else {
            Thread.sleep(forTimeInterval: min(timeout, 0.2))
            return
        }
        let me = ObjectIdentifier(Thread.current)
        condition.lock()
        defer { condition.unlock() }
        let last = seen[me] ?? generation
        while generation == last, condition.wait(until: deadline) {}
        seen[me] = generation
    }

    /// Opens the listening connection if needed; false when it cannot.
    private func listening() -> Bool {
        connecting.lock()
        defer { connecting.unlock() }
        if let connection, !connection.isClosed { return true }
        connection = nil
        guard let fresh = try? PostgresSession.connect(address) else { return false }
        fresh.addListener(channel: Self.channel) { [weak self] _, _ in self?.notified() }
        do {
            _ = try fresh.query("LISTEN lectern_queue", logger: PostgresSession.logger).wait(until: Date().addingTimeInterval(address.timeout))
        } catch {
            PostgresSession.abandon(fresh)
            return false
        }
        connection = fresh
        return true
    }

    private func notified() {
        condition.lock()
        generation += 1
        condition.broadcast()
        condition.unlock()
    }

    func close() {
        connecting.lock()
        defer { connecting.unlock() }
        PostgresSession.abandon(connection)
        connection = nil
    }
}
