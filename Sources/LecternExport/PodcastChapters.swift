import Foundation

/// An episode's chapters as Podcasting 2.0's JSON chapters file (`application/json+chapters`,
/// version 1.2.0): `startTime` and `endTime` in seconds from the start of the episode's own
/// audio, in order.
public struct PodcastChapters: Sendable, Equatable {
    /// One chapter, in milliseconds of the episode's audio.
    public struct Chapter: Sendable, Equatable {
        public var title: String
        public var startMs: Int
        public var endMs: Int?

        public init(title: String, startMs: Int, endMs: Int? = nil) {
            self.title = title
            self.startMs = startMs
            self.endMs = endMs
        }
    }

    /// The episode's title and the podcast's name, written into the file.
    public var title: String?
    public var podcastName: String?
    public var chapters: [Chapter]

    public init(title: String? = nil, podcastName: String? = nil, chapters: [Chapter]) {
        self.title = title
        self.podcastName = podcastName
        self.chapters = chapters
    }

    /// The chapters of `timings`, moved `offsetMs` earlier (the start of the episode's audio in
    /// the book's, for a chapter file) and never before 0.
    public static func chapters(of timings: [ChapterTiming], offsetMs: Int = 0) -> [Chapter] {
        timings.map { Chapter(title: $0.title, startMs: max(0, $0.start - offsetMs), endMs: max(0, $0.end - offsetMs)) }
    }

    /// The JSON document (keys sorted, so the same chapters give the same bytes).
    public func json() -> Data {
        let file = File(version: "1.2.0", title: title, podcastName: podcastName, chapters: chapters.map {
            File.Entry(startTime: Self.seconds($0.startMs), endTime: $0.endMs.map(Self.seconds), title: $0.title)
        })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Plain values only: encoding cannot fail.
        return (try? encoder.encode(file)) ?? Data()
    }

    /// Milliseconds as seconds with three decimals, exactly (a `Decimal`, so 1.001 is not written 1.0009999…).
    static func seconds(_ ms: Int) -> Decimal { Decimal(ms) / 1000 }

    private struct File: Encodable {
        var version: String
        var title: String?
        var podcastName: String?
        var chapters: [Entry]

        struct Entry: Encodable {
            var startTime: Decimal
            var endTime: Decimal?
            var title: String
        }
    }
}
