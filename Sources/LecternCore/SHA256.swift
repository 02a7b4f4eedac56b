import Foundation
import Crypto

/// A streaming SHA-256 with a hex digest — swift-crypto's (BoringSSL's on Linux) — for the
/// content hashes of chunks, chapters and books.
public struct SHA256 {
    private var function = Crypto.SHA256()

    public init() {}

    public mutating func update<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        if let data = bytes as? Data { function.update(data: data) } else { function.update(data: Array(bytes)) }
    }

    public mutating func update(_ string: String) { function.update(data: Data(string.utf8)) }

    /// Adds bytes in place, without copying them (for hashing a file block by block).
    public mutating func update(buffer: UnsafeRawBufferPointer) { function.update(bufferPointer: buffer) }

    /// The digest of everything given so far, as 64 lower-case hex digits.
    public mutating func hexDigest() -> String {
        function.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// The digest of a string's UTF-8 bytes.
    public static func hex(_ string: String) -> String {
        var hasher = SHA256()
        hasher.update(string)
        return hasher.hexDigest()
    }
}
