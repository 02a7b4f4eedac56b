import Foundation
import Testing
import LecternCore

/// Vectors: Podcasting 2.0's own `podcast:guid` example, and Python's `uuid.uuid5` (RFC 9562's
/// DNS namespace), an independent implementation.
@Suite struct NameBasedUUIDTests {
    @Test func theFeedURLGivesPodcastingTwoPointOhsExampleGUID() {
        #expect(NameBasedUUID.v5(namespace: NameBasedUUID.podcastNamespace, name: "podnews.net/rss") == "9b024349-ccf0-5f69-a609-6b82873eab3c")
    }

    @Test func aNameInTheDNSNamespaceGivesPythonsUUID() {
        let dns = UUID(uuidString: "6ba7b810-9dad-11d1-80b4-00c04fd430c8")!
        #expect(NameBasedUUID.v5(namespace: dns, name: "python.org") == "886313e1-3b8a-5372-9b90-0c9aee199e5d")
    }
}
