import Foundation
import CLibCrypto

/// A streaming SHA-256 with a hex digest — the system's OpenSSL (libcrypto's EVP interface) —
/// for the content hashes of chunks, chapters and books.
public struct SHA256 {
    private var context: Context

    public init() { context = Context() }

    public mutating func update<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        if let data = bytes as? Data {
            data.withUnsafeBytes { update(buffer: $0) }
        } else {
            Array(bytes).withUnsafeBytes { update(buffer: $0) }
        }
    }

    public mutating func update(_ string: String) {
        var string = string
        string.withUTF8 { update(buffer: UnsafeRawBufferPointer($0)) }
    }

    /// Adds bytes in place, without copying them (for hashing a file block by block).
    public mutating func update(buffer: UnsafeRawBufferPointer) {
        if !isKnownUniquelyReferenced(&context) { context = context.copy() }
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        context.check(EVP_DigestUpdate(context.pointer, base, buffer.count), "EVP_DigestUpdate")
    }

    /// The digest of everything given so far, as 64 lower-case hex digits. Further updates go on
    /// from the same bytes.
    public mutating func hexDigest() -> String {
        let final = context.copy()
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        final.check(EVP_DigestFinal_ex(final.pointer, &digest, &length), "EVP_DigestFinal_ex")
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(Int(length) * 2)
        for byte in digest.prefix(Int(length)) {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The digest of a string's UTF-8 bytes.
    public static func hex(_ string: String) -> String {
        var hasher = SHA256()
        hasher.update(string)
        return hasher.hexDigest()
    }

    /// One OpenSSL digest context, copied when a copied `SHA256` value is updated (value semantics).
    private final class Context {
        let pointer: OpaquePointer

        init() {
            guard let context = EVP_MD_CTX_new() else { fatalError("OpenSSL could not allocate a digest context (out of memory)") }
            pointer = context
            start()
        }

        private init(copying other: Context) {
            guard let context = EVP_MD_CTX_new() else { fatalError("OpenSSL could not allocate a digest context (out of memory)") }
            pointer = context
            check(EVP_MD_CTX_copy_ex(pointer, other.pointer), "EVP_MD_CTX_copy_ex")
        }

        func copy() -> Context { Context(copying: self) }

        func start() { check(EVP_DigestInit_ex(pointer, EVP_sha256(), nil), "EVP_DigestInit_ex") }

        /// OpenSSL's SHA-256 fails only when memory or the library itself is broken: nothing a
        /// caller could recover from.
        func check(_ result: Int32, _ function: String) {
            if result != 1 { fatalError("OpenSSL's \(function) failed for SHA-256") }
        }

        deinit { EVP_MD_CTX_free(pointer) }
    }
}
