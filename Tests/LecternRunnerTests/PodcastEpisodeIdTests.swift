import Foundation
import Testing
import LecternCore
@testable import LecternRunner

/// A podcast episode's id is a URL-safe slug of its title: the same title always gives the same
/// id, and nothing in it needs escaping in a URL path.
struct PodcastEpisodeIdTests {
    @Test(arguments: [
        ("CHAPTER 1. The Start", "chapter-1-the-start"),
        ("Où est l'été? — «Ça»", "ou-est-l-ete-ca"),
        ("Where/What?", "where-what"),
        ("   ", "book"),
        ("東京", "book"),
    ])
    func titlesBecomeURLSafeSlugs(title: String, slug: String) {
        #expect(PodcastPublication.slug(title, fallback: "book") == slug)
    }

    @Test func aLongTitleIsCutWithoutATrailingDash() {
        let slug = PodcastPublication.slug(String(repeating: "word ", count: 40), fallback: "x")
        #expect(slug.count <= 60 && !slug.hasSuffix("-") && slug.hasPrefix("word-word"))
        #expect(slug.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-") })
    }
}
