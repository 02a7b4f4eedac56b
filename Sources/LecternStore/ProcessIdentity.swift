import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Names a process uniquely on a machine and over time — host, pid and the kernel's start time of
/// the process — so that a recorded holder can be checked for life even after its pid is reused.
public struct ProcessIdentity: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var pid: Int32
    /// Clock ticks after boot at which the process started (field 22 of `/proc/PID/stat`).
    public var startTicks: UInt64

    /// This process.
    public static let current: ProcessIdentity = {
        let pid = getpid()
        return ProcessIdentity(host: hostName(), pid: pid, startTicks: startTicks(of: pid) ?? 0)
    }()

    public init(host: String, pid: Int32, startTicks: UInt64) {
        self.host = host
        self.pid = pid
        self.startTicks = startTicks
    }

    /// Parses `host:pid:ticks`.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3, let pid = Int32(parts[parts.count - 2]), let ticks = UInt64(parts[parts.count - 1]) else { return nil }
        self.init(host: parts.dropLast(2).joined(separator: ":"), pid: pid, startTicks: ticks)
    }

    public var description: String { "\(host):\(pid):\(startTicks)" }

    /// Whether the process is still running: always true for another host (its lease expiry
    /// decides), else its pid exists and started at the recorded time.
    public var isAlive: Bool {
        guard host == Self.current.host else { return true }
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let (state, ticks) = Self.stat(of: pid), state != "Z" else { return false }  // a zombie has ended
        return startTicks == 0 || ticks == startTicks
    }

    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func startTicks(of pid: Int32) -> UInt64? { stat(of: pid)?.startTicks }

    /// The state letter and start time of a process, from `/proc/PID/stat`.
    static func stat(of pid: Int32) -> (state: String, startTicks: UInt64)? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after the command name start at field 3 (state); the start time is field 22.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ticks = UInt64(fields[19]) else { return nil }
        return (String(fields[0]), ticks)
    }
}
