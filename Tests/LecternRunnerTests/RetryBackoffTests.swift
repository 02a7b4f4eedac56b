import Testing
@testable import LecternRunner

/// Waits after failures double up to their cap, and a worker says so once per change of state.
struct RetryBackoffTests {
    @Test func waitsDoubleUpToTheCapAndASuccessEndsThem() {
        var backoff = RetryBackoff(initial: 1, maximum: 30)
        let steps = (1...8).map { _ in backoff.failed("No space left on device") }
        #expect(steps.map(\.delay) == [1, 2, 4, 8, 16, 30, 30, 30])
        #expect(steps.map(\.changed) == [true] + Array(repeating: false, count: 7), "only the first failure is said")
        #expect(backoff.reason == "No space left on device" && backoff.isFailing)
        #expect(backoff.succeeded() == 8, "the success ends eight failures: say so")
        #expect(backoff.succeeded() == 0, "a second success has nothing to say")
        #expect(!backoff.isFailing && backoff.delay == 0)
        let again = backoff.failed("the job store did not answer")
        #expect(again.delay == 1 && again.changed, "a new outage starts from the first wait and is said again")
    }

    @Test func manyFailuresNeitherOverflowNorPassTheCap() {
        var backoff = RetryBackoff(initial: 0.5, maximum: 5)
        for _ in 0..<10_000 { _ = backoff.failed("down") }
        #expect(backoff.delay == 5)
    }
}
