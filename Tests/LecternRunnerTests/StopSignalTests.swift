import Foundation
import Testing
import LecternTestSupport
@testable import LecternRunner

/// The pauses of a worker's backoff and a daemon's poll: a stop ends them at once, and a wake
/// that comes while nobody pauses ends the next pause.
@Suite(.onTestThreads) struct StopSignalTests {
    @Test func aRaiseEndsAPauseAtOnceAndEveryPauseAfter() async {
        let signal = StopSignal()
        let started = Date()
        let pausing = Task(executorPreference: TestThreads.shared) { await signal.pause(30) }
        while signal.pauses == 0 { await Task.yield() }
        signal.raise()
        await pausing.value
        #expect(signal.pauses == 0)
        await signal.pause(30)
        #expect(Date().timeIntervalSince(started) < 5, "a raised signal's pauses end at once")
        #expect(signal.isRaised)
    }

    @Test func aWakeWhileNobodyPausesEndsTheNextPauseOnly() async {
        let signal = StopSignal()
        signal.wake()
        let started = Date()
        await signal.pause(30)
        #expect(Date().timeIntervalSince(started) < 5, "the wake was remembered")
        let again = Date()
        await signal.pause(0.2)
        #expect(Date().timeIntervalSince(again) >= 0.19, "one wake ends one pause")
        #expect(!signal.isRaised)
    }
}
