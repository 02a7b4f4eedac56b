import Foundation
import LecternText

/// Wall-clock seconds of a run's stages, for `lectern run --stats` and `--json`.
struct StageClock {
    private(set) var laps: [(name: String, seconds: Double)] = []
    private var last = Date()

    /// Ends the stage called `name` now and returns the laps so far.
    @discardableResult
    mutating func lap(_ name: String) -> [(name: String, seconds: Double)] {
        let now = Date()
        laps.append((name, now.timeIntervalSince(last)))
        last = now
        return laps
    }
}

extension JobRunner.Summary {
    /// The summary with its stages' times.
    func timed(_ laps: [(name: String, seconds: Double)]) -> JobRunner.Summary {
        var summary = self
        summary.phases = laps
        return summary
    }

    /// The summary with what the book leaves out.
    func with(_ skips: SkipSummary) -> JobRunner.Summary {
        var summary = self
        summary.skips = skips
        return summary
    }
}
