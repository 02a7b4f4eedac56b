import Foundation
import Logging
import LecternStore

/// How a run waiting for its chunks rides out a job store that does not answer (a stopped or
/// unreachable PostgreSQL server, whose every operation fails at its deadline): it says so once,
/// tries again with doubling waits (up to 5 s), says so once when the store answers again, and
/// fails with the store's last error once it has not answered for `patience` seconds.
struct StoreOutage {
    let storeName: String
    let patience: TimeInterval
    let control: RunControl
    let logger: Logger
    private var backoff = RetryBackoff(initial: 0.5, maximum: 5)
    private var since: Date?

    init(storeName: String, patience: TimeInterval, control: RunControl, logger: Logger) {
        self.storeName = storeName
        self.patience = patience
        self.control = control
        self.logger = logger
    }

    /// Runs `body` (an operation on the store) until it succeeds, the outage outlasts the
    /// patience, or the run is cancelled. Only ``StoreError``s are waited out.
    mutating func run<T>(_ body: () async throws -> T) async throws -> T {
        while true {
            do {
                let value = try await body()
                if let since, backoff.succeeded() > 0 {
                    logger.warning("the job store answers again", metadata: [
                        "store": "\(storeName)", "silentFor": "\(Int(Date().timeIntervalSince(since).rounded())) s"])
                }
                since = nil
                return value
            } catch let error as StoreError {
                let now = Date()
                let start = since ?? now
                since = start
                if now.timeIntervalSince(start) >= patience {
                    throw RunError("the job store \(storeName) has not answered for \(Int(now.timeIntervalSince(start).rounded())) s: \(error)")
                }
                let (delay, changed) = backoff.failed("\(error)")
                if changed {
                    logger.warning("waiting for the job store; the run fails if it does not answer within \(Int(patience)) s",
                                   metadata: ["store": "\(storeName)", "error": "\(error)"])
                }
                // Short sleeps, so that a cancelled run stops at once.
                let until = Date().addingTimeInterval(delay)
                while Date() < until {
                    try control.check()
                    try await Task.sleep(for: .seconds(min(0.1, max(0, until.timeIntervalSinceNow))))
                }
            }
        }
    }
}
