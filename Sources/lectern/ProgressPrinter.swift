import Foundation
import LecternRunner

/// Shows a run's progress: one redrawn bar on a terminal, a plain line every few seconds
/// otherwise (logs, CI). Words and audio done, speed in × real time, and time left.
final class ProgressPrinter: @unchecked Sendable {
    // @unchecked Sendable is safe: `lastLine` and `drawn` are touched only under `lock`.
    private let lock = NSLock()
    private let isTerminal = isatty(STDOUT_FILENO) == 1
    private var lastLine = Date.distantPast
    private var drawn = false

    func update(_ p: RunProgress) {
        lock.lock()
        defer { lock.unlock() }
        let finished = p.chunksDone == p.chunkCount
        if isTerminal {
            let width = 24
            let filled = Int(p.fraction * Double(width))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            FileHandle.standardOutput.write(Data("\r\(bar) \(Self.describe(p))\u{1B}[K".utf8))
            drawn = true
            if finished { FileHandle.standardOutput.write(Data("\n".utf8)); drawn = false }
        } else if finished || Date().timeIntervalSince(lastLine) >= 5 {
            print(Self.describe(p))
            lastLine = Date()
        }
    }

    /// Ends a bar left unfinished (the run failed).
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if drawn { FileHandle.standardOutput.write(Data("\n".utf8)) }
        drawn = false
    }

    static func describe(_ p: RunProgress) -> String {
        var s = String(format: "%3.0f%%  %d/%d words  %@ audio  %.0f× real time", p.fraction * 100, p.wordsDone, p.wordCount,
                       clock(p.audioSecondsDone), p.speed)
        if let left = p.remaining, p.chunksDone < p.chunkCount { s += "  ETA \(clock(left))" }
        return s
    }

}
