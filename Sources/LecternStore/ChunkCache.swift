import Foundation
import Synchronization
import LecternCore
#if canImport(Glibc)
import Glibc
#endif

/// The chunk cache's files: one MP3 stream per chunk key under `chunks/`, installed by an atomic
/// rename of a synced file (and a synced folder), so a file under its key is always complete.
///
/// Workers write into a per-run folder under `tmp/`; a run removes its own folder when it
/// ends, and folders of processes that died are removed by the next run (or `lectern gc`).
public struct ChunkCache: Sendable {
    public let directory: URL

    /// The cache that belongs to a job store: the `cache` folder of the store's local folder
    /// (beside a SQLite database file).
    public init(store: any JobStore) {
        self.init(directory: store.localFolder.appendingPathComponent("cache"))
    }

    public init(directory: URL) { self.directory = directory }

    var chunksDirectory: URL { directory.appendingPathComponent("chunks") }
    var temporaryRoot: URL { directory.appendingPathComponent("tmp") }

    /// Where the stream for `key` lives.
    public func url(for key: String) -> URL {
        chunksDirectory.appendingPathComponent(String(key.prefix(2))).appendingPathComponent("\(key).mp3")
    }

    /// A folder of this process for the chunks one run writes (created): `PID.TICKS.N`, one per
    /// run, so that runs side by side in one process (a daemon's) each remove only their own.
    public func temporaryDirectory() throws -> URL {
        let url = temporaryRoot.appendingPathComponent("\(getpid()).\(ProcessIdentity.current.startTicks).\(Self.runFolders.next())")
        do { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) } catch {
            throw StoreError("cannot create the cache folder \(url.path): \(FileError.reason(error))")
        }
        return url
    }

    /// Where the PCM (FLAC) kept beside the stream of `key` lives, for a chunk whose key keeps it.
    public func pcmURL(for key: String) -> URL {
        url(for: key).deletingPathExtension().appendingPathExtension("flac")
    }

    /// Moves a finished, synced stream into the cache under `key` and makes the rename durable.
    /// A PCM file beside it (`NAME.flac` beside `NAME.mp3`) moves in first, so a stream in the
    /// cache always has its PCM when its chunk keeps one.
    public func install(_ file: URL, key: String) throws {
        let target = url(for: key)
        let folder = target.deletingLastPathComponent()
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw StoreError("cannot create the cache folder \(folder.path): \(FileError.reason(error))")
        }
        let pcm = file.deletingPathExtension().appendingPathExtension("flac")
        if FileManager.default.fileExists(atPath: pcm.path), rename(pcm.path, pcmURL(for: key).path) != 0 {
            throw StoreError("cannot move \(pcm.path) into the cache: \(String(cString: strerror(errno)))")
        }
        guard rename(file.path, target.path) == 0 else {
            throw StoreError("cannot move \(file.path) into the cache: \(String(cString: strerror(errno)))")
        }
        AtomicFile.syncFolder(folder)
    }

    /// Whether the stream for `key` is on disk with the recorded size (and its PCM file, when
    /// `pcmBytes` is given).
    public func isIntact(key: String, bytes: Int, pcmBytes: Int? = nil) -> Bool {
        var info = stat()
        guard stat(url(for: key).path, &info) == 0 && Int(info.st_size) == bytes else { return false }
        guard let pcmBytes else { return true }
        return stat(pcmURL(for: key).path, &info) == 0 && Int(info.st_size) == pcmBytes
    }

    public func remove(key: String) {
        try? FileManager.default.removeItem(at: url(for: key))
        try? FileManager.default.removeItem(at: pcmURL(for: key))
    }

    /// Every key with a file in the cache.
    public func keysOnDisk() -> [String] {
        let fm = FileManager.default
        let prefixes = (try? fm.contentsOfDirectory(atPath: chunksDirectory.path)) ?? []
        return prefixes.flatMap { prefix in
            ((try? fm.contentsOfDirectory(atPath: chunksDirectory.appendingPathComponent(prefix).path)) ?? [])
                .filter { $0.hasSuffix(".mp3") }.map { String($0.dropLast(4)) }
        }
    }

    /// Removes the temporary folders of processes that are no longer running; returns them.
    @discardableResult
    public func removeStaleTemporaries(dryRun: Bool = false) -> [URL] {
        let me = ProcessIdentity.current
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporaryRoot.path)) ?? []
        return names.compactMap { name -> URL? in
            let parts = name.split(separator: ".")
            guard parts.count == 2 || parts.count == 3, let pid = Int32(parts[0]), let ticks = UInt64(parts[1]) else { return nil }
            guard !ProcessIdentity(host: me.host, pid: pid, startTicks: ticks).isAlive else { return nil }
            let url = temporaryRoot.appendingPathComponent(name)
            if !dryRun { try? FileManager.default.removeItem(at: url) }
            return url
        }
    }
}

extension ChunkCache {
    /// Numbers this process's run folders.
    static let runFolders = Counter()

    /// A number that only goes up, shared by the threads of a process.
    final class Counter: Sendable {
        private let value = Mutex(0)

        func next() -> Int {
            value.withLock { value in
                value += 1
                return value
            }
        }
    }
}
