import Foundation
import Testing
import LecternTestSupport
import LecternStore
#if canImport(Glibc)
import Glibc
#endif

/// The chunk cache in front of a shared store: a fetch downloads a chunk once and then serves the
/// local copy, checked on every read; a damaged copy (local or shared) is never served; trimming
/// removes the copies used longest ago, never pinned ones, and stops under the limit.
@Suite(.onTestThreads) struct ChunkCacheLRUTests {
    @Test func aFetchDownloadsOnceThenServesTheCheckedLocalCopy() throws {
        let folder = ChunkFixture.folder("lru-fetch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try ChunkFixture.mp3("A chunk fetched from the shared disk into this host's cache.", in: folder)
        let store = SharedChunkDirectory(directory: folder.appendingPathComponent("shared"))
        let cache = ChunkCache(directory: folder.appendingPathComponent("cache"))
        let key = ChunkFixture.key("fetch")
        let digest = try store.upload(source, key: key)

        let local = try cache.fetch(key: key, expected: digest, from: store)
        #expect(local == cache.url(for: key))
        #expect(try Data(contentsOf: local) == Data(contentsOf: source))
        #expect(cache.isIntact(key: key, bytes: digest.bytes))
        let inode = ChunkFixture.inode(of: local)

        // Served from the local copy: no second download (the shared copy is gone even).
        try store.remove(key: key)
        #expect(try cache.fetch(key: key, expected: digest, from: store) == local)
        #expect(ChunkFixture.inode(of: local) == inode)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("cache/tmp").path).isEmpty,
                "the fetch's temporary folder is removed")

        // A local copy that differs from the record is not served, and without a good shared copy
        // the fetch fails naming the key and the shared path.
        try ChunkFixture.flipByte(of: local, at: 200)
        let error = try #require(throws: StoreError.self) { try cache.fetch(key: key, expected: digest, from: store) }
        #expect(error.message == "cannot download chunk \(key) from \(store.url(for: key).path): No such file or directory")
        #expect(!FileManager.default.fileExists(atPath: local.path), "the damaged local copy is gone")
    }

    @Test func aDamagedLocalCopyIsReplacedFromTheSharedStore() throws {
        let folder = ChunkFixture.folder("lru-repair")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try ChunkFixture.mp3("A chunk whose local copy is damaged and fetched again.", in: folder)
        let store = SharedChunkDirectory(directory: folder.appendingPathComponent("shared"))
        let cache = ChunkCache(directory: folder.appendingPathComponent("cache"))
        let key = ChunkFixture.key("repair")
        let digest = try store.upload(source, key: key)
        let local = try cache.fetch(key: key, expected: digest, from: store)

        try ChunkFixture.flipByte(of: local, at: UInt64(digest.bytes - 1))  // same size: only the hash tells
        #expect(cache.isIntact(key: key, bytes: digest.bytes))
        #expect(try cache.fetch(key: key, expected: digest, from: store) == local)
        #expect(try ChunkDigest(file: local) == digest)
        #expect(try Data(contentsOf: local) == Data(contentsOf: source))
    }

    @Test func aDamagedSharedCopyIsNeverCached() throws {
        let folder = ChunkFixture.folder("lru-damaged")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try ChunkFixture.mp3("A chunk damaged on the shared disk before any host fetched it.", in: folder)
        let store = SharedChunkDirectory(directory: folder.appendingPathComponent("shared"))
        let cache = ChunkCache(directory: folder.appendingPathComponent("cache"))
        let key = ChunkFixture.key("shared-damage")
        let digest = try store.upload(source, key: key)
        try ChunkFixture.flipByte(of: store.url(for: key), at: 500)

        let error = try #require(throws: StoreError.self) { try cache.fetch(key: key, expected: digest, from: store) }
        #expect(error.message.contains(key) && error.message.contains(store.url(for: key).path) && error.message.contains("SHA-256"))
        #expect(!FileManager.default.fileExists(atPath: cache.url(for: key).path))
        #expect(cache.keysOnDisk().isEmpty)
        #expect(ChunkFixture.temporaries(under: folder).isEmpty)
    }

    @Test func trimmingRemovesTheLeastRecentlyUsedUnpinnedChunksUntilUnderTheLimit() throws {
        let folder = ChunkFixture.folder("lru-trim")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = SharedChunkDirectory(directory: folder.appendingPathComponent("shared"))
        let cache = ChunkCache(directory: folder.appendingPathComponent("cache"))
        var digests: [String: ChunkDigest] = [:]
        let names = ["a", "b", "c", "d"]
        let keys = Dictionary(uniqueKeysWithValues: names.map { ($0, ChunkFixture.key("trim-\($0)")) })
        for name in names {
            let file = folder.appendingPathComponent("\(name).bin")
            try Data(repeating: UInt8(name.utf8.first!), count: 100_000).write(to: file)
            digests[name] = try store.upload(file, key: keys[name]!)
        }
        func fetch(_ name: String) throws { _ = try cache.fetch(key: keys[name]!, expected: digests[name]!, from: store) }

        // Used in the order a b c d, then a again: from least to most recent b c d a.
        for name in names + ["a"] { try fetch(name) }
        #expect(cache.bytesOnDisk() == 400_000)
        #expect(cache.trim(toBytes: 1_000_000, keeping: []).isEmpty, "under the limit: nothing to do")

        let removed = cache.trim(toBytes: 250_000, keeping: [keys["b"]!])
        #expect(removed == [keys["c"]!, keys["d"]!], "b is pinned; c then d were used longest ago; then it fits")
        #expect(Set(cache.keysOnDisk()) == [keys["a"]!, keys["b"]!])
        #expect(cache.bytesOnDisk() == 200_000)

        // Fetching c again makes it the most recent; b (older than a) goes first now.
        try fetch("c")
        #expect(cache.trim(toBytes: 200_000, keeping: []) == [keys["b"]!])
        // Only pinned chunks left: trimming stops above the limit rather than remove them.
        #expect(cache.trim(toBytes: 0, keeping: [keys["a"]!, keys["c"]!]).isEmpty)
        #expect(Set(cache.keysOnDisk()) == [keys["a"]!, keys["c"]!])
        #expect(cache.trim(toBytes: 100_000, keeping: [keys["c"]!]) == [keys["a"]!])
    }
}
