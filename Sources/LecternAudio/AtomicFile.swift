import Foundation

/// Writes a file under a temporary name in the same folder, syncs it, and renames it into
/// place, so a reader sees the old file or the new one, never half of one.
public enum AtomicFile {
    /// A temporary name beside `url` that no other process uses.
    public static func temporaryURL(for url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
    }

    /// Replaces `url` with `data`.
    public static func write(_ data: Data, to url: URL) throws {
        try write(to: url) { handle in try handle.write(contentsOf: data) }
    }

    /// Replaces `url` with what `body` writes to the handle.
    public static func write(to url: URL, _ body: (FileHandle) throws -> Void) throws {
        let tmp = temporaryURL(for: url)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: tmp.path, contents: nil) else {
                throw AudioError("cannot create \(tmp.path)")
            }
            let handle = try FileHandle(forWritingTo: tmp)
            defer { try? handle.close() }
            try body(handle)
            try handle.synchronize()
            guard rename(tmp.path, url.path) == 0 else {
                throw AudioError("cannot rename \(tmp.path) to \(url.path): \(String(cString: strerror(errno)))")
            }
        } catch {
            try? FileManager.default.removeItem(at: tmp)
            if let e = error as? AudioError { throw e }
            throw AudioError("cannot write \(url.path): \(error.localizedDescription)")
        }
    }
}
