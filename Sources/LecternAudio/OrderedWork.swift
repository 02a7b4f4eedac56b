import Foundation

/// Jobs run on threads of its own, their results handed back in the order the jobs were given:
/// what lets an encoder use every core on consecutive stretches of one stream and still write
/// the stream in order (``OpusWriter``). The caller bounds the jobs in flight (``inFlight``)
/// by taking results before it gives more.
final class OrderedWork<Output: Sendable>: @unchecked Sendable {
    typealias Job = @Sendable () throws -> Output

    private let condition = NSCondition()
    private var waiting: [(index: Int, job: Job)] = []
    private var results: [Int: Result<Output, any Error>] = [:]
    private var given = 0
    private var taken = 0
    private var closed = false

    /// Starts `threads` threads (at least one), which wait for jobs until ``close()``.
    init(threads: Int) {
        for _ in 0..<max(1, threads) {
            let thread = Thread { [self] in work() }
            thread.name = "lectern-encoder"
            thread.start()
        }
    }

    /// Jobs given and not yet taken back.
    var inFlight: Int { condition.withLock { given - taken } }

    /// Queues a job.
    func give(_ job: @escaping Job) {
        condition.withLock {
            waiting.append((given, job))
            given += 1
            condition.broadcast()
        }
    }

    /// The next result in order, waiting for it; nil when every job given has been taken back.
    /// Not to be called after ``close()``.
    func next() -> Result<Output, any Error>? {
        condition.withLock {
            guard taken < given else { return nil }
            while results[taken] == nil { condition.wait() }
            defer { taken += 1 }
            return results.removeValue(forKey: taken)
        }
    }

    /// The next result in order if it is ready.
    func nextIfReady() -> Result<Output, any Error>? {
        condition.withLock {
            guard let result = results.removeValue(forKey: taken) else { return nil }
            taken += 1
            return result
        }
    }

    /// Lets the threads end once the jobs queued are done; jobs not yet started are dropped.
    func close() {
        condition.withLock {
            closed = true
            waiting.removeAll()
            condition.broadcast()
        }
    }

    private func work() {
        while true {
            let next: (index: Int, job: Job)? = condition.withLock {
                while waiting.isEmpty && !closed { condition.wait() }
                return waiting.isEmpty ? nil : waiting.removeFirst()
            }
            guard let next else { return }
            let result = Result { try next.job() }
            condition.withLock {
                results[next.index] = result
                condition.broadcast()
            }
        }
    }
}
