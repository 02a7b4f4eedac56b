import Foundation
import LecternStore

/// Keeps a job's lease alive while a run holds it: renews it six times per lease period in a
/// task of its own, and calls `onLost` if another process has taken it over (the run must then stop).
final class LeaseHeartbeat: Sendable {
    private let beating: Task<Void, Never>

    init(store: any JobStore, jobId: Int64, holder: ProcessIdentity, duration: TimeInterval, onLost: @escaping @Sendable () -> Void) {
        let interval = max(0.5, duration / 6)
        beating = Task {
            while true {
                try? await Task.sleep(for: .seconds(interval))
                if Task.isCancelled { return }
                // A busy database only delays the renewal; only a lease that is gone stops the run.
                if (try? await store.renewLease(jobId: jobId, holder: holder, duration: duration)) == false {
                    onLost()
                    return
                }
            }
        }
    }

    func stop() { beating.cancel() }
}
