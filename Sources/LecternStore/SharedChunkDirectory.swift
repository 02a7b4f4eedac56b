import Foundation
import LecternCore
#if canImport(Glibc)
import Glibc
#endif

/// A ``ChunkStore`` in a folder every host mounts (NFS and the like), laid out as the chunk cache
/// is: `chunks/AB/KEY.mp3`.
///
/// Only plain files and renames, which such filesystems do atomically: no SQLite and no file locks
/// on it. An upload writes `.KEY.HOST.PID.N.tmp` in the key's folder, syncs it, renames it into
/// place and syncs the folder, so a reader sees the whole stream or none; two hosts uploading one
/// key both succeed, and the last rename leaves the same bytes. A temporary left by a host that
/// died mid-upload is removed by age (``removeStaleTemporaries(olderThan:dryRun:)``): the life of
/// a process on another host cannot be checked, and hosts may even share a name.
public struct SharedChunkDirectory: ChunkStore {
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    var chunksDirectory: URL { directory.appendingPathComponent("chunks") }

    /// Where the stream for `key` lives.
    public func url(for key: String) -> URL {
        chunksDirectory.appendingPathComponent(String(key.prefix(2))).appendingPathComponent("\(key).mp3")
    }

    public var description: String { "the shared chunk directory \(directory.path)" }

    @discardableResult
    public func upload(_ file: URL, key: String) throws -> ChunkDigest {
        try checkChunkKey(key)
        let digest = try ChunkDigest(file: file)
        let target = url(for: key)
        if Self.size(of: target) == digest.bytes, (try? ChunkDigest(file: target)) == digest { return digest }
        let folder = target.deletingLastPathComponent()
        try Self.createFolder(folder)
        let host = ProcessIdentity.current.host.replacingOccurrences(of: "/", with: "_")
        let temporary = folder.appendingPathComponent(".\(key).\(host).\(getpid()).\(Self.temporaries.next()).tmp")
        try Self.copy(file, to: target, through: temporary) { copied in
            guard copied == digest else {
                throw StoreError("cannot upload \(file.path) as chunk \(key): the file changed while it was read (\(digest), then \(copied))")
            }
        }
        return digest
    }

    public func download(key: String, expected: ChunkDigest, to destination: URL) throws {
        try checkChunkKey(key)
        let source = url(for: key)
        let folder = destination.deletingLastPathComponent()
        try Self.createFolder(folder)
        let temporary = folder.appendingPathComponent(".\(destination.lastPathComponent).\(getpid()).\(Self.temporaries.next()).tmp")
        try Self.copy(source, to: destination, through: temporary, failure: "cannot download chunk \(key) from \(source.path)") { copied in
            guard copied != expected else { return }
            let what = copied.bytes != expected.bytes
                ? "it has \(copied.bytes) bytes where \(expected.bytes) were recorded"
                : "its SHA-256 is \(copied.sha256) where \(expected.sha256) was recorded (same size, damaged content)"
            throw StoreError("cannot download chunk \(key) from \(source.path): \(what)")
        }
    }

    public func contains(key: String, expected: ChunkDigest) -> Bool {
        (try? checkChunkKey(key)) != nil && Self.size(of: url(for: key)) == expected.bytes
    }

    public func keys() throws -> [String] {
        try Self.list(chunksDirectory).flatMap { prefix -> [String] in
            let folder = chunksDirectory.appendingPathComponent(prefix)
            var info = stat()
            guard !prefix.hasPrefix("."), stat(folder.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return [] }
            return try Self.list(folder)
                .filter { !$0.hasPrefix(".") && $0.hasSuffix(".mp3") }
                .map { String($0.dropLast(4)) }
        }
    }

    public func remove(key: String) throws {
        try checkChunkKey(key)
        let file = url(for: key)
        guard unlink(file.path) == 0 || errno == ENOENT else {
            throw StoreError("cannot remove \(file.path): \(String(cString: strerror(errno)))")
        }
    }

    @discardableResult
    public func removeStaleTemporaries(olderThan age: TimeInterval, dryRun: Bool) -> [URL] {
        let now = Date().timeIntervalSince1970
        let prefixes = (try? Self.list(chunksDirectory)) ?? []
        return prefixes.flatMap { prefix -> [URL] in
            let folder = chunksDirectory.appendingPathComponent(prefix)
            return ((try? Self.list(folder)) ?? []).compactMap { name -> URL? in
                guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
                let file = folder.appendingPathComponent(name)
                var info = stat()
                guard lstat(file.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
                let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
                guard now - modified > age else { return nil }
                if !dryRun { unlink(file.path) }
                return file
            }
        }
    }
}

extension SharedChunkDirectory {
    /// Numbers this process's temporaries, so that threads uploading one key never share one.
    static let temporaries = ChunkCache.Counter()

    /// Copies `source` to `temporary` (created new), hashing what it reads; lets `check` refuse the
    /// digest; syncs; renames to `destination` and syncs its folder. On any failure the temporary
    /// is removed and `destination` is untouched. Errors reading `source` start with `failure`.
    static func copy(_ source: URL, to destination: URL, through temporary: URL, failure: String? = nil,
                     check: (ChunkDigest) throws -> Void) throws {
        let input = open(source.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            throw StoreError("\(failure ?? "cannot read \(source.path)"): \(String(cString: strerror(errno)))")
        }
        defer { close(input) }
        let output = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard output >= 0 else {
            throw StoreError("cannot create \(temporary.path): \(String(cString: strerror(errno)))")
        }
        var closed = false
        do {
            let digest = try ChunkDigest.stream(from: input, readFailure: failure ?? "cannot read \(source.path)",
                                                into: output, writeFailure: "cannot write \(temporary.path)")
            try check(digest)
            guard fsync(output) == 0 else { throw StoreError("cannot write \(temporary.path): \(String(cString: strerror(errno)))") }
            closed = true
            guard close(output) == 0 else { throw StoreError("cannot write \(temporary.path): \(String(cString: strerror(errno)))") }
        } catch {
            if !closed { close(output) }
            unlink(temporary.path)
            throw error
        }
        guard rename(temporary.path, destination.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw StoreError("cannot move \(temporary.path) to \(destination.path): \(reason)")
        }
        AtomicFile.syncFolder(destination.deletingLastPathComponent())
    }

    /// Creates a folder and its parents, syncing the parent of each one it made.
    static func createFolder(_ folder: URL) throws {
        var info = stat()
        if stat(folder.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return }
        let parent = folder.deletingLastPathComponent()
        if parent.path != folder.path { try createFolder(parent) }
        guard mkdir(folder.path, 0o755) == 0 else {
            let reason = errno
            // Another process may have made it just now; anything else in the way is an error.
            if reason == EEXIST, stat(folder.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return }
            throw StoreError("cannot create the folder \(folder.path): \(reason == EEXIST ? "a file of that name is in the way" : String(cString: strerror(reason)))")
        }
        AtomicFile.syncFolder(parent)
    }

    /// The names in a folder; none if the folder does not exist.
    static func list(_ folder: URL) throws -> [String] {
        guard let dir = opendir(folder.path) else {
            if errno == ENOENT { return [] }
            throw StoreError("cannot list \(folder.path): \(String(cString: strerror(errno)))")
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// A file's size, or nil if it is not there.
    static func size(of file: URL) -> Int? {
        var info = stat()
        return stat(file.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
    }
}
