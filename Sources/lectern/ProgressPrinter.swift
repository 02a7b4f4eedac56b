import Foundation
import LecternRunner

/// Shows a run's progress on stderr (stdout stays for results): one bar redrawn in place on a
/// terminal, cut to the terminal's width so it never wraps into stale lines; when stderr is not a
/// terminal, nothing, or with `--progress` a plain line every few seconds (logs, CI). Words and
/// audio done, speed in × real time, and time left; a run whose chunks all come from the cache
/// says so instead of a speed.
final class ProgressPrinter: @unchecked Sendable {
    // @unchecked Sendable is safe: `lastLine` and `drawn` are touched only under `lock`.
    private let lock = NSLock()
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let plainLines: Bool
    private var lastLine = Date.distantPast
    private var drawn = false

    /// - parameter plainLines: Print plain lines when stderr is not a terminal.
    init(plainLines: Bool) { self.plainLines = plainLines }

    func update(_ p: RunProgress) {
        lock.lock()
        defer { lock.unlock() }
        let finished = p.chunksDone == p.chunkCount
        if isTerminal {
            let line = Self.bar(p, columns: Self.terminalColumns())
            FileHandle.standardError.write(Data("\r\(line)\u{1B}[K".utf8))
            drawn = true
            if finished { FileHandle.standardError.write(Data("\n".utf8)); drawn = false }
        } else if plainLines, finished || Date().timeIntervalSince(lastLine) >= 5 {
            FileHandle.standardError.write(Data((Self.describe(p) + "\n").utf8))
            lastLine = Date()
        }
    }

    /// Ends a bar left unfinished (the run failed, or a warning is about to be printed).
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if drawn { FileHandle.standardError.write(Data("\n".utf8)) }
        drawn = false
    }

    /// The bar and the description, at most `columns - 1` characters (a line as wide as the
    /// terminal wraps the cursor on some terminals): the bar shrinks first, then the text is cut.
    static func bar(_ p: RunProgress, columns: Int) -> String {
        let text = describe(p)
        let room = columns - 1
        let width = min(24, room - text.count - 1)
        guard width >= 5 else { return String(text.prefix(max(0, room))) }
        let filled = Int(p.fraction * Double(width))
        return String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled) + " " + text
    }

    static func describe(_ p: RunProgress) -> String {
        if p.chunksDone == p.chunkCount, p.audioSecondsReused >= p.audioSecondsDone, p.chunkCount > 0 {
            return String(format: "100%%  %d words  %@ audio, all %d chunks from the cache", p.wordCount, clock(p.audioSecondsDone), p.chunkCount)
        }
        var s = String(format: "%3.0f%%  %d/%d words  %@ audio", p.fraction * 100, p.wordsDone, p.wordCount, clock(p.audioSecondsDone))
        if p.speed > 0 { s += String(format: "  %.0f× real time", p.speed) }
        if let left = p.remaining, p.chunksDone < p.chunkCount { s += "  ETA \(clock(left))" }
        return s
    }

    /// The terminal's width (TIOCGWINSZ on stderr), read at each redraw so a resize is followed.
    static func terminalColumns() -> Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
