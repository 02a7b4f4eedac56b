import Testing
import LecternCore

/// Vectors from FIPS 180-4's examples and cross-checked with coreutils' `sha256sum`.
@Suite struct SHA256Tests {
    @Test func emptyInputHasTheStandardDigest() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func abcHasTheStandardDigest() {
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func twoBlockMessageHasTheStandardDigest() {
        #expect(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test(arguments: [
        (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
        (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
    ])
    func paddingBoundariesAroundOneBlock(length: Int, digest: String) {
        #expect(SHA256.hex(String(repeating: "a", count: length)) == digest)
    }

    @Test func nonASCIITextIsHashedAsUTF8() {
        #expect(SHA256.hex("héllo ✓") == "5657cdef8a85a584e0e961e6f8247cf5d3f8ed21496ed6fdbcfd43a761e94245")
    }

    @Test func incrementalUpdatesEqualOneShotHashing() {
        let text = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 7)
        var hasher = SHA256()
        var rest = Substring(text)
        for size in [1, 63, 64, 2, 100] where !rest.isEmpty {
            hasher.update(String(rest.prefix(size)))
            rest = rest.dropFirst(size)
        }
        hasher.update(Array(rest.utf8))
        #expect(hasher.hexDigest() == SHA256.hex(text))
    }

    @Test func oneMillionAs() {
        var hasher = SHA256()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 10_000)
        for _ in 0..<100 { hasher.update(chunk) }
        #expect(hasher.hexDigest() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func aCopiedHasherGoesOnOnItsOwn() {
        var first = SHA256()
        first.update("abc")
        var second = first
        second.update("def")
        #expect(first.hexDigest() == SHA256.hex("abc"))
        #expect(second.hexDigest() == SHA256.hex("abcdef"))
    }

    @Test func aDigestMidwayDoesNotEndTheHash() {
        var hasher = SHA256()
        hasher.update("abc")
        #expect(hasher.hexDigest() == SHA256.hex("abc"))
        hasher.update("def")
        #expect(hasher.hexDigest() == SHA256.hex("abcdef"))
    }
}
