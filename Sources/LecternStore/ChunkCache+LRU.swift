import Foundation
import LecternCore
#if canImport(Glibc)
import Glibc
#endif

/// The chunk cache as this host's copy of a shared ``ChunkStore``, kept least-recently-used:
/// ``fetch(key:expected:from:)`` checks the local copy's SHA-256 on every read, downloads only a
/// missing or damaged one, and marks it used (its modification time, set to now); ``trim(toBytes:keeping:)``
/// removes the copies used longest ago until the cache fits, never those of runs in progress.
extension ChunkCache {
    /// The local file of `key`, checked against `expected` (size and SHA-256) on every call and
    /// downloaded from `store` when it is missing or differs; marked used.
    public func fetch(key: String, expected: ChunkDigest, from store: any ChunkStore) throws -> URL {
        try checkChunkKey(key)
        let local = url(for: key)
        if SharedChunkDirectory.size(of: local) == expected.bytes, (try? ChunkDigest(file: local)) == expected {
            Self.markUsed(local)
            return local
        }
        if SharedChunkDirectory.size(of: local) != nil, unlink(local.path) != 0, errno != ENOENT {
            throw StoreError("cannot remove the damaged cache copy \(local.path): \(String(cString: strerror(errno)))")
        }
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let downloaded = folder.appendingPathComponent("\(key).mp3")
        try store.download(key: key, expected: expected, to: downloaded)
        try install(downloaded, key: key)
        Self.markUsed(local)
        return local
    }

    /// The key a chunk's kept PCM has in a shared ``ChunkStore``: its own key and `-pcm`.
    public static func sharedPCMKey(for key: String) -> String { key + "-pcm" }

    /// The local PCM file of `key` (``pcmURL(for:)``), checked against `expected` (size and
    /// SHA-256) and downloaded from `store` (under ``sharedPCMKey(for:)``) when it is missing or
    /// differs.
    public func fetchPCM(key: String, expected: ChunkDigest, from store: any ChunkStore) throws -> URL {
        try checkChunkKey(key)
        let local = pcmURL(for: key)
        if SharedChunkDirectory.size(of: local) == expected.bytes, (try? ChunkDigest(file: local)) == expected { return local }
        if SharedChunkDirectory.size(of: local) != nil, unlink(local.path) != 0, errno != ENOENT {
            throw StoreError("cannot remove the damaged cache copy \(local.path): \(String(cString: strerror(errno)))")
        }
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let downloaded = folder.appendingPathComponent("\(key).flac")
        try store.download(key: Self.sharedPCMKey(for: key), expected: expected, to: downloaded)
        let target = local.deletingLastPathComponent()
        do { try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true) } catch {
            throw StoreError("cannot create the cache folder \(target.path): \(FileError.reason(error))")
        }
        guard rename(downloaded.path, local.path) == 0 else {
            throw StoreError("cannot move \(downloaded.path) into the cache: \(String(cString: strerror(errno)))")
        }
        AtomicFile.syncFolder(target)
        return local
    }

    /// Removes the local chunk files used longest ago, never those of `keeping` (the chunks of
    /// runs in progress), until the files in the cache take at most `limit` bytes (or only kept
    /// ones are left); returns the removed keys, oldest use first.
    @discardableResult
    public func trim(toBytes limit: Int, keeping: Set<String>) -> [String] {
        let files = usage()
        var total = files.reduce(0) { $0 + $1.bytes }
        var removed: [String] = []
        for file in files where !keeping.contains(file.key) {
            guard total > limit else { break }
            guard unlink(url(for: file.key).path) == 0 || errno == ENOENT else { continue }
            unlink(pcmURL(for: file.key).path)
            total -= file.bytes
            removed.append(file.key)
        }
        return removed
    }

    /// The bytes of all chunk files (streams and kept PCM) in the cache.
    public func bytesOnDisk() -> Int { usage().reduce(0) { $0 + $1.bytes } }

    /// Every chunk file with its size and last use, the one used longest ago first.
    func usage() -> [(key: String, bytes: Int, used: timespec)] {
        keysOnDisk().compactMap { key -> (key: String, bytes: Int, used: timespec)? in
            var info = stat()
            guard stat(url(for: key).path, &info) == 0 else { return nil }
            let (bytes, used) = (Int(info.st_size), info.st_mtim)
            // A kept PCM file counts with its stream.
            let pcm = stat(pcmURL(for: key).path, &info) == 0 ? Int(info.st_size) : 0
            return (key, bytes + pcm, used)
        }.sorted { a, b in
            if a.used.tv_sec != b.used.tv_sec { return a.used.tv_sec < b.used.tv_sec }
            if a.used.tv_nsec != b.used.tv_nsec { return a.used.tv_nsec < b.used.tv_nsec }
            return a.key < b.key
        }
    }

    /// Sets a file's access and modification times to now, read from the clock to the nanosecond
    /// (the kernel's own file times are only as fine as its tick, too coarse to order fetches).
    static func markUsed(_ file: URL) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var times = [now, now]
        utimensat(AT_FDCWD, file.path, &times, 0)
    }
}
