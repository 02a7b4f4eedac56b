import Foundation
import LecternStore

/// Holds a worker's lease on one claimed chunk while it renders: renews it three times per lease
/// period, and calls `onLost` once the lease is lost — another worker holds the chunk (the
/// renewal is refused), or no renewal has reached the store for a whole lease period (the worker
/// is cut off from the database, so another worker may have claimed the chunk by now).
final class ChunkLeaseKeeper: @unchecked Sendable {
    // @unchecked Sendable is safe: `lost`, `why` and `renewed` are only touched while holding `lock`.
    private let timer: DispatchSourceTimer
    private let lock = NSLock()
    private var lost = false
    private var why: String?
    private var renewed = Date()

    init(store: any JobStore, taskId: Int64, worker: String, duration: TimeInterval,
         onLost: @escaping @Sendable (String) -> Void) {
        timer = DispatchSource.makeTimerSource(queue: .global(qos: .userInitiated))
        let interval = max(0.2, duration / 3)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [self] in
            let reason: String?
            do {
                if try store.renewChunkLease(taskId: taskId, worker: worker, leaseDuration: duration) {
                    lock.lock()
                    renewed = Date()
                    lock.unlock()
                    reason = nil
                } else {
                    reason = "another worker holds it now"
                }
            } catch {
                lock.lock()
                let silent = Date().timeIntervalSince(renewed)
                lock.unlock()
                reason = silent >= duration ? "no renewal reached the store for \(Int(silent)) s (\(error))" : nil
            }
            guard let reason else { return }
            lock.lock()
            let first = !lost
            lost = true
            why = why ?? reason
            lock.unlock()
            if first { onLost(reason) }
        }
        timer.resume()
    }

    /// Why the lease was lost, if it was.
    var lossReason: String? {
        lock.lock()
        defer { lock.unlock() }
        return lost ? why : nil
    }

    func stop() { timer.cancel() }
}
