import Foundation
import LecternStore

/// Holds a worker's lease on one claimed chunk while it renders: renews it three times per lease
/// period, and calls `onLost` once the lease is lost — another worker holds the chunk (the
/// renewal is refused), or no renewal has reached the store for a whole lease period (the worker
/// is cut off from the database, so another worker may have claimed the chunk by now).
///
/// The period is judged by a timer of its own, apart from the renewals, so that a renewal that
/// hangs (a connection that neither answers nor fails) cannot keep the worker rendering a chunk
/// that is no longer its own.
final class ChunkLeaseKeeper: @unchecked Sendable {
    // @unchecked Sendable is safe: `lost`, `why`, `renewed` and `renewing` are only touched while holding `lock`.
    private let timer: DispatchSourceTimer
    private let lock = NSLock()
    private var lost = false
    private var why: String?
    private var renewed = Date()
    private var renewing = false
    private var lastError: String?

    init(store: any JobStore, taskId: Int64, worker: String, duration: TimeInterval,
         onLost: @escaping @Sendable (String) -> Void) {
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "lectern.chunk-lease"))
        let interval = max(0.2, duration / 3)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [self] in
            lock.lock()
            let silent = Date().timeIntervalSince(renewed)
            let startRenewal = !renewing && !lost
            if startRenewal { renewing = true }
            let error = lastError
            lock.unlock()
            if silent >= duration {
                lose("no renewal reached the store for \(Int(silent)) s" + (error.map { " (\($0))" } ?? ""), onLost)
                return
            }
            guard startRenewal else { return }
            DispatchQueue.global(qos: .userInitiated).async { [self] in
                var refused = false
                do {
                    let held = try store.renewChunkLease(taskId: taskId, worker: worker, leaseDuration: duration)
                    lock.lock()
                    if held { renewed = Date(); lastError = nil }
                    refused = !held
                    renewing = false
                    lock.unlock()
                } catch {
                    lock.lock()
                    lastError = "\(error)"
                    renewing = false
                    lock.unlock()
                }
                if refused { lose("another worker holds it now", onLost) }
            }
        }
        timer.resume()
    }

    private func lose(_ reason: String, _ onLost: @Sendable (String) -> Void) {
        lock.lock()
        let first = !lost
        lost = true
        why = why ?? reason
        lock.unlock()
        if first { onLost(reason) }
    }

    /// Why the lease was lost, if it was.
    var lossReason: String? {
        lock.lock()
        defer { lock.unlock() }
        return lost ? why : nil
    }

    func stop() { timer.cancel() }
}
