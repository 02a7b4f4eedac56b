import Foundation
import LecternCore
#if canImport(Glibc)
import Glibc
#endif

/// What a chunk file holds, as a check on every copy of it: its size and the SHA-256 of its bytes.
///
/// Made by reading the file block by block, so hashing a chunk of any size takes constant memory.
public struct ChunkDigest: Codable, Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The file's size in bytes.
    public var bytes: Int
    /// The SHA-256 of the file's bytes, as 64 lower-case hex digits.
    public var sha256: String

    public init(bytes: Int, sha256: String) {
        self.bytes = bytes
        self.sha256 = sha256
    }

    /// The digest of a file's bytes, read in blocks of ``blockSize``.
    public init(file: URL) throws {
        let fd = open(file.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw StoreError("cannot read \(file.path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        self = try Self.stream(from: fd, readFailure: "cannot read \(file.path)")
    }

    /// The digest of bytes in memory.
    public init(data: Data) {
        var hasher = LecternCore.SHA256()
        data.withUnsafeBytes { hasher.update(buffer: $0) }
        self.init(bytes: data.count, sha256: hasher.hexDigest())
    }

    public var description: String { "\(bytes) bytes, SHA-256 \(sha256)" }

    /// The size of the blocks files are read and copied in.
    public static let blockSize = 1 << 20

    /// Reads `source` to its end, hashing every block and, when `destination` is given, writing it
    /// there as well; the digest is of the bytes read. Errors are `<readFailure>: <reason>` or
    /// `<writeFailure>: <reason>`.
    static func stream(from source: Int32, readFailure: String, into destination: Int32? = nil, writeFailure: String = "") throws -> ChunkDigest {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: blockSize, alignment: 16)
        defer { buffer.deallocate() }
        var hasher = LecternCore.SHA256()
        var total = 0
        while true {
            let count = read(source, buffer.baseAddress, blockSize)
            if count < 0 {
                if errno == EINTR { continue }
                throw StoreError("\(readFailure): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            let block = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            hasher.update(buffer: block)
            total += count
            if let destination { try writeAll(block, to: destination, failure: writeFailure) }
        }
        return ChunkDigest(bytes: total, sha256: hasher.hexDigest())
    }

    private static func writeAll(_ block: UnsafeRawBufferPointer, to fd: Int32, failure: String) throws {
        var offset = 0
        while offset < block.count {
            let written = write(fd, block.baseAddress! + offset, block.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw StoreError("\(failure): \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }
}
