import Foundation

/// A lock for async code: one holder at a time, waiters let in in the order they came, and no
/// thread blocked while they wait. A backend holds it around each transaction on its one
/// connection, so one process's transactions never interleave on it.
package actor AsyncGate {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Bool, Never>
        let timer: Task<Void, Never>?
    }

    private var held = false
    private var waiters: [Waiter] = []
    private var lastId: UInt64 = 0

    package init() {}

    /// How many callers wait for the gate now.
    package var waiting: Int { waiters.count }

    /// Waits for the gate; false when `deadline` passed first (the caller does not hold it then).
    package func enter(before deadline: Date? = nil) async -> Bool {
        guard held else {
            held = true
            return true
        }
        lastId += 1
        let id = lastId
        return await withCheckedContinuation { continuation in
            let timer = deadline.map { deadline in
                Task { [weak self] in
                    try? await Task.sleep(for: .seconds(max(0, deadline.timeIntervalSinceNow)))
                    if !Task.isCancelled { await self?.expire(id) }
                }
            }
            waiters.append(Waiter(id: id, continuation: continuation, timer: timer))
        }
    }

    /// Gives the gate to the next waiter, or opens it.
    package func leave() {
        guard !waiters.isEmpty else {
            held = false
            return
        }
        let next = waiters.removeFirst()
        next.timer?.cancel()
        next.continuation.resume(returning: true)
    }

    private func expire(_ id: UInt64) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(returning: false)
    }
}

extension AsyncGate {
    /// Runs `body` holding the gate.
    package nonisolated func holding<T>(_ body: () async throws -> T) async rethrows -> T {
        _ = await enter()
        return try await leaving(after: body)
    }

    /// Runs `body` holding the gate; nil when `deadline` passed before the gate was free.
    package nonisolated func holding<T>(before deadline: Date, _ body: () async throws -> T) async rethrows -> T? {
        guard await enter(before: deadline) else { return nil }
        return try await leaving(after: body)
    }

    /// Runs `body`, then leaves the gate, which the caller holds.
    private nonisolated func leaving<T>(after body: () async throws -> T) async rethrows -> T {
        do {
            let result = try await body()
            await leave()
            return result
        } catch {
            await leave()
            throw error
        }
    }
}
