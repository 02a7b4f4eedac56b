import Foundation
import CLibCrypto

/// A name-based UUID, version 5 (RFC 9562 §5.5): the SHA-1 of a namespace UUID and a name, so the
/// same name always gives the same UUID — what Podcasting 2.0's `podcast:guid` asks for.
public enum NameBasedUUID {
    /// The namespace Podcasting 2.0 gives for `podcast:guid`.
    public static let podcastNamespace = UUID(uuidString: "ead4c236-bf58-58c6-a2c6-a6b28d128cb6")!

    /// The version-5 UUID of `name` (its UTF-8 bytes) in `namespace`, lower-case.
    ///
    /// The corresponding C function is `EVP_Digest` with `EVP_sha1`.
    public static func v5(namespace: UUID, name: String) -> String {
        let ns = namespace.uuid
        var input = [ns.0, ns.1, ns.2, ns.3, ns.4, ns.5, ns.6, ns.7, ns.8, ns.9, ns.10, ns.11, ns.12, ns.13, ns.14, ns.15]
        input += Array(name.utf8)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        // SHA-1 of bytes in memory fails only when the library itself is broken.
        guard EVP_Digest(input, input.count, &digest, &length, EVP_sha1(), nil) == 1, length >= 16 else {
            fatalError("OpenSSL's EVP_Digest failed for SHA-1")
        }
        digest[6] = (digest[6] & 0x0f) | 0x50  // version 5
        digest[8] = (digest[8] & 0x3f) | 0x80  // the RFC's variant
        let hex = digest.prefix(16).map { String(format: "%02x", $0) }.joined()
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return parts.joined(separator: "-")
    }
}
