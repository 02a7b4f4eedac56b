import Foundation
import LecternCore
import LecternStore

/// An API token's secret: `lct_` and 43 characters of base64url (256 random bits). Only its
/// SHA-256 is stored; a token that leaks from the store's backups is useless.
public enum APIToken {
    /// A new random secret.
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return "lct_" + base64URL(bytes)
    }

    /// A random URL-safe secret of `bytes` random bytes (a feed's address).
    public static func secret(bytes count: Int = 24) -> String {
        var generator = SystemRandomNumberGenerator()
        return base64URL((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// What the store keeps of `secret`.
    public static func hash(_ secret: String) -> String { SHA256.hex(secret) }

    /// Whether `secret` has a token's form (checked before the store is asked).
    static func looksValid(_ secret: String) -> Bool {
        secret.hasPrefix("lct_") && secret.count == 47 && secret.utf8.dropFirst(4).allSatisfy { isBase64URL($0) }
    }

    static func isBase64URL(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x5F
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Adds a token for `owner` to the store and returns its secret, shown once.
    public static func create(name: String, owner: String, admin: Bool, in store: any JobStore) async throws -> String {
        let secret = generate()
        try await store.addToken(APITokenRecord(name: name, owner: owner, hash: hash(secret), admin: admin, createdAt: Date()))
        return secret
    }
}
