import Foundation
import Testing
import LecternStore
@testable import LecternRunner

/// What a run decides from the job's earlier runs: whether its outputs are already current, and
/// which stopped run it resumes.
struct RunDecisionTests {
    static func run(_ id: Int64, _ state: RunState, bookHash: String? = "book", stamp: String? = "stamp") -> RunRecord {
        RunRecord(id: id, jobId: 1, trigger: .manual, state: state, startedAt: Date(timeIntervalSince1970: 0), pid: 1,
                  wordsDone: 0, audioMsDone: 0, bookHash: bookHash, outputStamp: stamp)
    }

    static func upToDate(after last: RunRecord?, force: Bool = false, allCached: Bool = true, bookHash: String? = "book",
                         stamp: String = "stamp") -> Bool {
        RunPlan.isUpToDate(after: last, force: force, allCached: allCached, bookHash: bookHash) { stamp }
    }

    @Test func theSameBookWithEveryChunkCachedAndUntouchedOutputsIsUpToDate() {
        #expect(Self.upToDate(after: Self.run(1, .succeeded)))
    }

    @Test func anythingThatDiffersMakesTheRunRenderAndWrite() {
        let last = Self.run(1, .succeeded)
        #expect(!Self.upToDate(after: nil), "no successful run yet")
        #expect(!Self.upToDate(after: last, force: true), "--force")
        #expect(!Self.upToDate(after: last, allCached: false), "a chunk is missing from the cache")
        #expect(!Self.upToDate(after: last, bookHash: "other"), "the book changed (text, settings, cover, outputs)")
        #expect(!Self.upToDate(after: last, stamp: "touched"), "an output was changed or removed since")
        #expect(!Self.upToDate(after: Self.run(1, .succeeded, stamp: nil)), "the last run recorded no stamp")
    }

    @Test func theOutputsAreOnlyStampedWhenEverythingElseAgrees() {
        var stamped = 0
        _ = RunPlan.isUpToDate(after: Self.run(1, .succeeded), force: true, allCached: true, bookHash: "book") {
            stamped += 1
            return "stamp"
        }
        #expect(stamped == 0)
        _ = RunPlan.isUpToDate(after: Self.run(1, .succeeded), force: false, allCached: true, bookHash: "book") {
            stamped += 1
            return "stamp"
        }
        #expect(stamped == 1)
    }

    @Test func aRunStoppedAfterTheLastSuccessIsResumed() {
        #expect(RunRecording.resumedRun(stopped: Self.run(5, .interrupted), lastSuccess: Self.run(3, .succeeded)) == 5)
        #expect(RunRecording.resumedRun(stopped: Self.run(2, .failed), lastSuccess: nil) == 2)
    }

    @Test func aRunStoppedBeforeTheLastSuccessIsNotResumed() {
        #expect(RunRecording.resumedRun(stopped: Self.run(2, .cancelled), lastSuccess: Self.run(3, .succeeded)) == nil)
        #expect(RunRecording.resumedRun(stopped: nil, lastSuccess: Self.run(3, .succeeded)) == nil)
        #expect(RunRecording.resumedRun(stopped: nil, lastSuccess: nil) == nil)
    }
}
