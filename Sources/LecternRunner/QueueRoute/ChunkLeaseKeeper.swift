import Foundation
import Synchronization
import LecternStore

/// Holds a worker's lease on one claimed chunk while it renders: renews it three times per lease
/// period, and calls `onLost` once the lease is lost — another worker holds the chunk (the
/// renewal is refused), or no renewal has reached the store for a whole lease period (the worker
/// is cut off from the database, so another worker may have claimed the chunk by now).
///
/// The period is judged by a timer of its own, apart from the renewals, so that a renewal that
/// hangs (a connection that neither answers nor fails) cannot keep the worker rendering a chunk
/// that is no longer its own.
final class ChunkLeaseKeeper: Sendable {
    private struct State {
        var lost = false
        var why: String?
        var renewed = Date()
        var renewing = false
        var lastError: String?
    }

    private let state = Mutex(State())
    private let ticking: Mutex<Task<Void, Never>?> = Mutex(nil)

    init(store: any JobStore, taskId: Int64, worker: String, duration: TimeInterval,
         onLost: @escaping @Sendable (String) -> Void) {
        let interval = max(0.2, duration / 3)
        let ticker = Task { [weak self] in
            while true {
                try? await Task.sleep(for: .seconds(interval))
                guard let self, !Task.isCancelled else { return }
                self.tick(store: store, taskId: taskId, worker: worker, duration: duration, onLost: onLost)
            }
        }
        ticking.withLock { $0 = ticker }
    }

    /// One beat of the period's timer: the lease is lost after a whole period without a renewal;
    /// else a renewal starts unless one is still under way.
    private func tick(store: any JobStore, taskId: Int64, worker: String, duration: TimeInterval,
                      onLost: @escaping @Sendable (String) -> Void) {
        let (silent, startRenewal, error) = state.withLock { state in
            let start = !state.renewing && !state.lost
            if start { state.renewing = true }
            return (Date().timeIntervalSince(state.renewed), start, state.lastError)
        }
        if silent >= duration {
            lose("no renewal reached the store for \(Int(silent)) s" + (error.map { " (\($0))" } ?? ""), onLost)
            return
        }
        guard startRenewal else { return }
        Task {
            var refused = false
            do {
                let held = try await store.renewChunkLease(taskId: taskId, worker: worker, leaseDuration: duration)
                state.withLock { state in
                    if held { state.renewed = Date(); state.lastError = nil }
                    state.renewing = false
                }
                refused = !held
            } catch {
                state.withLock { state in
                    state.lastError = "\(error)"
                    state.renewing = false
                }
            }
            if refused { lose("another worker holds it now", onLost) }
        }
    }

    private func lose(_ reason: String, _ onLost: @Sendable (String) -> Void) {
        let first = state.withLock { state in
            defer { state.lost = true; state.why = state.why ?? reason }
            return !state.lost
        }
        if first { onLost(reason) }
    }

    /// Why the lease was lost; nil while it is held.
    var lossReason: String? { state.withLock { $0.lost ? $0.why : nil } }

    func stop() { ticking.withLock { $0?.cancel() } }
}
