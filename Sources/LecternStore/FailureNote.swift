import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A run's last words, for when the job store cannot take them: space reserved beside the store
/// when the run starts (`DB-notes/run-ID` beside a SQLite store), overwritten in place with the run's error if
/// recording it fails (a full disk, a read-only store), and read by the next process that takes
/// the job, which records the run as failed with that message.
///
/// Overwriting blocks a file already owns needs no free space, so the message survives the disk
/// being full; the note is removed once the run's end is in the store.
public struct FailureNote: Sendable {
    /// The bytes reserved; a longer message is cut.
    static let size = 4096
    public let url: URL

    public init(store: any JobStore, runId: Int64) {
        url = store.notesFolder.appendingPathComponent("run-\(runId)")
    }

    /// Reserves the space (best effort: without it, a failure the store misses is reported as an
    /// interruption, as before).
    public func reserve() {
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let blank = [UInt8](repeating: UInt8(ascii: " "), count: Self.size)
        if blank.withUnsafeBytes({ pwrite(fd, $0.baseAddress, Self.size, 0) }) != Self.size {
            _ = ftruncate(fd, 0)
            return
        }
        fsync(fd)
    }

    /// Writes `message` into the reserved space; false when there is none.
    @discardableResult
    public func write(_ message: String) -> Bool {
        let fd = open(url.path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, Int(info.st_size) == Self.size else { return false }
        var bytes = Array(message.utf8.prefix(Self.size - 1))
        while !bytes.isEmpty, String(validating: bytes, as: UTF8.self) == nil { bytes.removeLast() }  // a cut character
        bytes += [UInt8](repeating: UInt8(ascii: " "), count: Self.size - bytes.count)
        let written = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, Self.size, 0) }
        fsync(fd)
        return written == Self.size
    }

    /// The message written, if any.
    public func read() -> String? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
