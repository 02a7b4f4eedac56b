import Foundation

/// Threads of the test process's own, for async code under test.
///
/// Swift's tasks share a pool of one thread per core — two on the machine the tests are kept
/// under 20 minutes on. Many tests block their thread while a `lectern` process renders, and two
/// of them are enough to leave no thread for a task that only waits for the store. Async tests of
/// the store and the runner run here (``onTestThreads``), and ``BlockingStore`` probes the store
/// from the blocking tests here, so neither waits for the shared pool.
public final class TestThreads: TaskExecutor, @unchecked Sendable {
    // @unchecked Sendable is safe: `jobs` is only touched while holding `condition`.
    /// The executor every test shares.
    public static let shared = TestThreads(count: 8)

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    private init(count: Int) {
        for index in 0..<count {
            let thread = Thread { [self] in work() }
            thread.name = "lectern-test-\(index)"
            thread.start()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// One thread: runs jobs as they come, for as long as the process lives.
    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// Runs `body` as a task on these threads and waits for its result: for a test that blocks
    /// its thread anyway (on a `lectern` process) and reads the store between its waits.
    public func wait<T: Sendable>(for body: @escaping @Sendable () async throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let outcome = Outcome<T>()
        Task(executorPreference: self) {
            do { outcome.result = .success(try await body()) } catch { outcome.result = .failure(error) }
            done.signal()
        }
        done.wait()
        return try outcome.result!.get()
    }

    private final class Outcome<T>: @unchecked Sendable {
        // @unchecked Sendable is safe: written by the task before it signals, read after the wait.
        var result: Result<T, Error>?
    }
}
