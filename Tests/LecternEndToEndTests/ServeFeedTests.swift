import Foundation
import Testing

/// A served book's podcast feed at its secret address: feedparser reads it over HTTP and its
/// chapters and transcript parse back to the sidecar's times (Tests/Scripts/podcast_feed.py); the
/// enclosure streams with Range; an unknown secret is 404, the feed needs no token, and rotating
/// the secret retires the old address.
@Suite(.enabled(if: PodcastFeedScript.missing == nil, "\(PodcastFeedScript.missing ?? "")"))
struct ServeFeedTests {
    @Test func aServedBooksFeedParsesBackToItsSidecarAndRotates() throws {
        let ws = try Workspace("serve-feed")
        let server = try ServeProcess(ws)
        let book = try ws.write("book.txt", """
            CHAPTER I.

            It was a quiet morning in the town, and the baker sang.

            CHAPTER II.

            The river ran under the old bridge, & the children watched it.
            """)
        let created = try server.createJob(["document=@\(book.path)", "title=Morning & River", "author=A <Tester>"])
        try #require(created.status == 201, "\(created.text)")
        let id = try #require(created.object["id"] as? Int)
        let feedPath = try #require(created.object["feed"] as? String)
        #expect(try server.request(feedPath, token: "").status == 404, "no feed before a render")
        let run = try server.render(job: id)
        try #require(run["state"] as? String == "succeeded", "\(run)")

        let sidecar = ws.url.appendingPathComponent("book.timings.json")
        try server.request("/api/v1/jobs/\(id)/outputs/book.timings.json").body.write(to: sidecar)
        let base = server.base + String(feedPath.dropLast("/feed.xml".count))
        let checked = try PodcastFeedScript.check(base, sidecar: sidecar, episodes: "book")
        #expect(checked.failures.isEmpty && checked.episodes == 1 && checked.chapters == 2 && checked.words > 10, "\(checked)")

        let feed = try server.request(feedPath, token: "")
        #expect(feed.status == 200 && feed.headers["content-type"]?.hasPrefix("application/rss+xml") == true)
        let enclosure = try #require(feed.text.range(of: #"url="[^"]+""#, options: .regularExpression).map { String(feed.text[$0].dropFirst(5).dropLast()) })
        let audioPath = try #require(URL(string: enclosure)?.path)
        let part = try server.request(audioPath, ["-H", "Range: bytes=0-99"], token: "")
        #expect(part.status == 206 && part.body.count == 100)
        #expect(try server.request("/feeds/" + String(repeating: "x", count: 32) + "/feed.xml", token: "").status == 404)

        let rotated = try server.request("/api/v1/jobs/\(id)/feed/rotate", ["-X", "POST"])
        let newPath = try #require(rotated.object["url"] as? String)
        #expect(newPath != feedPath)
        #expect(try server.request(feedPath, token: "").status == 404)
        #expect(try server.request(newPath, token: "").status == 200)
    }
}
