import Foundation

/// Where the chunk streams every host can reach live: one file per chunk key, content-addressed
/// (a key always names the same bytes, so a second upload of a key is harmless), checked against
/// its ``ChunkDigest`` on every read.
///
/// Small on purpose, so that an object store can implement it later; ``SharedChunkDirectory`` is
/// the one implementation today. A host keeps its own copies in its ``ChunkCache`` in front of it
/// (``ChunkCache/fetch(key:expected:from:)``).
public protocol ChunkStore: Sendable, CustomStringConvertible {
    /// Stores the file under `key` and returns the digest of what was stored. Idempotent: a key
    /// already stored with the same content is left as it is; readers never see a partial file.
    @discardableResult
    func upload(_ file: URL, key: String) throws -> ChunkDigest

    /// Copies the stream of `key` to `destination`, checking its size and SHA-256 against
    /// `expected`. On any failure (a mismatch names the key, the stored path and what differed)
    /// nothing new is left at `destination`.
    func download(key: String, expected: ChunkDigest, to destination: URL) throws

    /// Whether `key` is stored with the expected size (cheap: the content is not read).
    func contains(key: String, expected: ChunkDigest) -> Bool

    /// Every stored key.
    func keys() throws -> [String]

    /// Removes the stream of `key`; a key that is not stored is not an error.
    func remove(key: String) throws

    /// Removes the temporaries of uploads that never finished (a host died mid-upload) once they
    /// are older than `age` seconds; returns them (with `dryRun`, only lists them).
    @discardableResult
    func removeStaleTemporaries(olderThan age: TimeInterval, dryRun: Bool) -> [URL]
}

extension ChunkStore {
    @discardableResult
    public func removeStaleTemporaries(olderThan age: TimeInterval) -> [URL] {
        removeStaleTemporaries(olderThan: age, dryRun: false)
    }
}

/// Refuses a key that could not be a file name of its own (chunk keys are hex digests).
func checkChunkKey(_ key: String) throws {
    let allowed = key.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F }
    guard key.count >= 2, allowed else {
        throw StoreError("cannot use \"\(key)\" as a chunk key: a key is two or more letters, digits, '-' or '_'")
    }
}
