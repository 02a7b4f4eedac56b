import Foundation

/// The largest peak resident memory any worker process of this process reached, as the worker's
/// own kernel accounting says (`VmHWM` in `/proc/PID/status`), read just before the worker is
/// stopped.
///
/// `getrusage(RUSAGE_CHILDREN)` cannot tell it: a worker is spawned with `vfork` semantics
/// (`posix_spawn`), sharing this process's memory until it execs, and the kernel carries that
/// shared memory's high-water mark into the child's `ru_maxrss` at exec — so every worker looked
/// at least as large as its parent.
public enum WorkerMemory {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var largest = 0

    /// The largest peak of the workers stopped so far, in KiB (0: none measured).
    public static var largestPeakKiB: Int {
        lock.lock()
        defer { lock.unlock() }
        return largest
    }

    /// Reads a live worker's peak and keeps it if it is the largest.
    static func record(pid: Int32) {
        guard let peak = peakKiB(of: pid) else { return }
        lock.lock()
        largest = max(largest, peak)
        lock.unlock()
    }

    /// `VmHWM` of a live process, in KiB.
    static func peakKiB(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.dropFirst("VmHWM:".count).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        }
        return nil
    }
}
