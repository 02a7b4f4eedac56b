import Foundation

/// Work done once for every caller that asks for the same key while it runs: the first caller's
/// task does it, the others wait for its outcome (eight first requests for one voice's audition
/// render it once).
actor SingleFlight {
    private var running: [String: Task<Void, Error>] = [:]

    /// Runs `work` for `key`, or waits for the run already under way for it.
    func run(_ key: String, _ work: @escaping @Sendable () async throws -> Void) async throws {
        if let task = running[key] { return try await task.value }
        let task = Task { try await work() }
        running[key] = task
        defer { running[key] = nil }
        try await task.value
    }
}
