import Foundation
import Synchronization

/// A flag that is raised once (a worker told to stop, a daemon shutting down) and the pauses
/// that end early when it is: a task resting between tries wakes at once on ``raise()``.
/// ``wake()`` ends the current pauses without raising the flag, or the next pause when none is
/// under way (a daemon woken by a run's end or a reload that came while it was busy).
final class StopSignal: Sendable {
    private struct State {
        var raised = false
        var woken = false
        var waiters: [UInt64: (continuation: CheckedContinuation<Void, Never>, timer: Task<Void, Never>)] = [:]
        var lastId: UInt64 = 0
    }

    private let state = Mutex(State())

    init() {}

    /// Whether ``raise()`` was called.
    var isRaised: Bool { state.withLock { $0.raised } }

    /// How many pauses are under way.
    var pauses: Int { state.withLock { $0.waiters.count } }

    /// Raises the flag and ends every pause.
    func raise() {
        for waiter in state.withLock({ state in
            state.raised = true
            return takeWaiters(&state)
        }) { waiter.resume() }
    }

    /// Ends every pause now (or the next one, when none is under way), without raising the flag.
    func wake() {
        for waiter in state.withLock({ state in
            if state.waiters.isEmpty { state.woken = true }
            return takeWaiters(&state)
        }) { waiter.resume() }
    }

    /// Returns after `seconds`; at once if the flag is raised or a ``wake()`` came since the
    /// last pause; or when ``raise()`` or ``wake()`` is called meanwhile.
    func pause(_ seconds: TimeInterval) async {
        guard seconds > 0 else { return }
        let id = state.withLock { state in
            state.lastId += 1
            return state.lastId
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let timer = Task { [weak self] in
                try? await Task.sleep(for: .seconds(seconds))
                if !Task.isCancelled { self?.state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume() }
            }
            let waits = state.withLock { state in
                guard !state.raised, !state.woken else {
                    state.woken = false
                    return false
                }
                state.waiters[id] = (continuation, timer)
                return true
            }
            if !waits {
                timer.cancel()
                continuation.resume()
            }
        }
    }

    private func takeWaiters(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        defer { state.waiters = [:] }
        return state.waiters.values.map { waiter in
            waiter.timer.cancel()
            return waiter.continuation
        }
    }
}
