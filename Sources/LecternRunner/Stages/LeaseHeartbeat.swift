import Foundation
import LecternStore

/// Keeps a job's lease alive while a run holds it: renews it six times per lease period on a
/// timer, and calls `onLost` if another process has taken it over (the run must then stop).
final class LeaseHeartbeat: @unchecked Sendable {
    // @unchecked Sendable is safe: `timer` is set once in init and only cancelled after.
    private let timer: DispatchSourceTimer

    init(store: any JobStore, jobId: Int64, holder: ProcessIdentity, duration: TimeInterval, onLost: @escaping @Sendable () -> Void) {
        timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        let interval = max(0.5, duration / 6)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler {
            // A busy database only delays the renewal; only a lease that is gone stops the run.
            if (try? store.renewLease(jobId: jobId, holder: holder, duration: duration)) == false { onLost() }
        }
        timer.resume()
    }

    func stop() { timer.cancel() }
}
