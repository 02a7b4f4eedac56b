import Foundation

/// A file written under a temporary name in its final folder, synced, and renamed into place
/// only when complete, so a reader sees the old file or the new one, never half of one.
public final class AtomicFile {
    public let url: URL
    public let temporaryURL: URL
    public let handle: FileHandle
    private var done = false
    private var prepared = false
    /// Whether the temporary file was made by someone else (``produced(at:by:)``).
    private var external = false

    /// A temporary name beside `url` that no other writer uses, `.NAME.PID.RANDOM.tmp`: the
    /// process's id (so a later run can clear what a dead process left, ``temporaryOwner(of:)``)
    /// and 64 random bits, so two tasks of one process writing the same file never share one.
    public static func temporaryURL(for url: URL) -> URL {
        let random = String(UInt64.random(in: .min ... .max), radix: 16)
        let part = String(repeating: "0", count: 16 - random.count) + random
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(part).tmp")
    }

    /// The file name and the writing process's id of a temporary name made by
    /// ``temporaryURL(for:)`` (`.NAME.PID.RANDOM.tmp`, or `.NAME.PID.tmp` as earlier versions
    /// named them); nil for any other name.
    public static func temporaryOwner(of entry: String) -> (name: String, pid: Int32)? {
        guard entry.hasPrefix("."), entry.hasSuffix(".tmp"), entry.count > 5 else { return nil }
        var parts = entry.dropFirst().dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
        if parts.count >= 3, parts.last!.count == 16, parts.last!.allSatisfy(\.isHexDigit), Int32(parts[parts.count - 2]) != nil {
            parts.removeLast()
        }
        guard parts.count >= 2, let pid = Int32(parts.last!), !parts.last!.hasPrefix("-"), !parts.last!.hasPrefix("+") else { return nil }
        let name = parts.dropLast().joined(separator: ".")
        return name.isEmpty ? nil : (name, pid)
    }

    /// Creates the temporary file (and the folder).
    public init(_ url: URL) throws {
        self.url = url
        temporaryURL = Self.temporaryURL(for: url)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: temporaryURL.path, contents: nil) else {
                throw FileError("cannot create \(temporaryURL.path)")
            }
            handle = try FileHandle(forWritingTo: temporaryURL)
        } catch let error as FileError { throw error } catch {
            throw FileError("cannot create \(temporaryURL.path): \(FileError.reason(error))")
        }
    }

    deinit { discard() }

    public func write(_ data: Data) throws {
        do { try handle.write(contentsOf: data) } catch {
            throw FileError("cannot write \(url.path): \(FileError.reason(error))")
        }
    }

    /// Syncs and closes the file without renaming it yet, so that several files can be made
    /// durable first and then renamed into place one right after the other.
    public func prepare() throws {
        guard !done, !prepared else { return }
        do {
            if external {
                let written = try FileHandle(forUpdating: temporaryURL)
                try written.synchronize()
                try written.close()
            } else {
                try handle.synchronize()
                try handle.close()
            }
            prepared = true
        } catch {
            discard()
            throw FileError("cannot write \(url.path): \(FileError.reason(error))")
        }
    }

    /// Syncs the file (unless ``prepare()`` did) and renames it into place.
    public func commit() throws {
        guard !done else { return }
        try prepare()
        guard rename(temporaryURL.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            discard()
            throw FileError("cannot move \(temporaryURL.path) to \(url.path): \(reason)")
        }
        done = true
        Self.syncFolder(url.deletingLastPathComponent())  // make the rename itself durable
    }

    /// fsync on a folder, so that a rename in it survives a power loss.
    public static func syncFolder(_ folder: URL) {
        let fd = open(folder.path, O_RDONLY | O_DIRECTORY)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// Removes the temporary file; the destination is untouched.
    public func discard() {
        guard !done else { return }
        done = true
        if !prepared, !external { try? handle.close() }
        try? FileManager.default.removeItem(at: temporaryURL)
    }

    /// A file that `body` creates itself at the temporary URL it is given (for a library that
    /// insists on creating its output, such as a ZIP writer); prepare and commit it as any other.
    public static func produced(at url: URL, by body: (URL) throws -> Void) throws -> AtomicFile {
        let file = try external(url)
        do { try body(file.temporaryURL) } catch {
            file.discard()
            if error is FileError { throw error }
            throw FileError("cannot write \(url.path): \(FileError.reason(error))")
        }
        return file
    }

    /// A file that a library will create itself at ``temporaryURL`` later (an encoder that opens
    /// its own output while others are written); prepare and commit it as any other.
    public static func external(_ url: URL) throws -> AtomicFile {
        let file = try AtomicFile(url)
        try? file.handle.close()
        try? FileManager.default.removeItem(at: file.temporaryURL)
        file.external = true
        return file
    }

    /// Replaces `url` with what `body` writes to the handle.
    public static func write(to url: URL, _ body: (FileHandle) throws -> Void) throws {
        let file = try AtomicFile(url)
        do {
            try body(file.handle)
        } catch {
            file.discard()
            if error is FileError { throw error }
            throw FileError("cannot write \(url.path): \(FileError.reason(error))")
        }
        try file.commit()
    }

    /// Replaces `url` with `data`.
    public static func write(_ data: Data, to url: URL) throws {
        try write(to: url) { try $0.write(contentsOf: data) }
    }
}
