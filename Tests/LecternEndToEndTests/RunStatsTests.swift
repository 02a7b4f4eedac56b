import Foundation
import Testing

/// `run --stats` tells a worker's memory as the worker's own: a parent grown large (30 MB of
/// `<script>` read before the one short paragraph) does not make its workers look as large.
struct RunStatsTests {
    @Test func theLargestWorkerIsMeasuredByItsOwnPeak() throws {
        let ws = try Workspace("stats")
        let page = "<html><body><script>" + String(repeating: "x", count: 30_000_000) + "</script>"
            + "<p>Once upon a time there was a short page after a long script.</p></body></html>"
        try ws.write("page.html", page)
        let result = try Tool.lectern(["run", "--quiet", "--stats", "--workers", "1", ws.url.appendingPathComponent("page.html").path], db: ws.db)
        try #require(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stderr.split(separator: "\n").first { $0.hasPrefix("peak RSS:") }, "\(result.stderr)")
        let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        try #require(numbers.count == 2, "\(line)")
        let (parent, worker) = (numbers[0], numbers[1])
        #expect(parent > 60, "the parent read 30 MB and peaked at \(parent) MB?")
        #expect(worker > 0 && worker < parent / 2, "a worker synthesizing one sentence shown at \(worker) MB beside its parent's \(parent) MB")
    }
}
