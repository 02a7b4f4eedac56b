import Foundation
import LecternCore
import Testing
import LecternAudio

/// Tags of books without parts must stay byte for byte what Lectern wrote before parts existed:
/// these digests are of the encodings made by the code of commit 7ed2430 (which wrote no padding).
@Suite struct ID3TagWithoutPartsTests {
    func digest(_ tag: ID3Tag) -> String {
        var hasher = SHA256()
        hasher.update([UInt8]((try? tag.encoded()) ?? Data()))
        return hasher.hexDigest()
    }

    @Test func threeChaptersWithCoverAndUTF16TitlesEncodeAsBefore() {
        let tag = ID3Tag(title: "Bøøk", artist: "Ánn Author", album: "Bøøk", cover: .init(mimeType: "image/jpeg", data: Data((0..<200).map { UInt8($0) })),
                         chapters: [.init(title: "One", startMs: 0, endMs: 1500), .init(title: "東", startMs: 1500, endMs: 70_000),
                                    .init(title: "Three", startMs: 70_000, endMs: 90_123)], padding: 0)
        #expect(digest(tag) == "2e7005530a7ac5398462ee1b8bd334c85c402368dc9601a81c5037064884d2bd")
    }

    @Test func twoHundredFiftyFiveChaptersEncodeAsBefore() {
        let tag = ID3Tag(title: "B", chapters: (0..<255).map { .init(title: "c\($0)", startMs: $0 * 7, endMs: $0 * 7 + 7) }, padding: 0)
        #expect(digest(tag) == "87e204acd79d3c6b4d7b39e16c3e8df76309b566078a581c907f385d61f4528b")
    }

    @Test func threeHundredChaptersEncodeAsBefore() {
        let tag = ID3Tag(title: "Long", chapters: (0..<300).map { .init(title: "c\($0)", startMs: $0 * 10, endMs: $0 * 10 + 10) }, padding: 0)
        #expect(digest(tag) == "1c5cea91225d9fd2206358dc9ef2b3ea95abf737d2a280f6dfbe5fd8abdab6bd")
    }
}
