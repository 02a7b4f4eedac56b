import Foundation

/// `profile: acx`'s files: one per chapter, and a chapter longer than ACX allows a file to be
/// (120 minutes) in as few parts as keep each under it, of about equal length, each cut where a
/// chunk begins — between paragraphs, in a pause — and titled "TITLE (part k of n)".
public enum ACXFiles {
    /// One file: its title and the book samples it holds.
    public struct File: Equatable, Sendable {
        public var title: String
        public var range: Range<Int>
        public init(title: String, range: Range<Int>) {
            self.title = title
            self.range = range
        }
    }

    /// The longest a file's audio may be, in seconds: ACX's 120 minutes less the room tone the
    /// master adds at its head and tail (3.25 s) and a margin.
    public static let longestSeconds = 120 * 60 - 30

    /// The files of `chapters` (each a title and its range of book samples), given where the
    /// book's chunks begin (`chunkStarts`, in book samples).
    public static func files(chapters: [(title: String, range: Range<Int>)], chunkStarts: [Int], sampleRate: Int,
                             longest: Int = longestSeconds) -> [File] {
        let limit = longest * sampleRate
        return chapters.flatMap { chapter -> [File] in
            guard chapter.range.count > limit else { return [File(title: chapter.title, range: chapter.range)] }
            let inside = chunkStarts.filter { chapter.range.lowerBound < $0 && $0 < chapter.range.upperBound }.sorted()
            var parts = (chapter.range.count + limit - 1) / limit
            while true {
                let cuts = Self.cuts(of: chapter.range, into: parts, at: inside)
                let bounds = [chapter.range.lowerBound] + cuts + [chapter.range.upperBound]
                let ranges = zip(bounds, bounds.dropFirst()).map { $0..<$1 }
                // A chunk boundary near each even cut keeps the parts under the limit; where the
                // chunks are too long for that, one more part.
                if ranges.allSatisfy({ $0.count <= limit }) || parts >= chapter.range.count / max(1, sampleRate) {
                    return ranges.enumerated().map { File(title: "\(chapter.title) (part \($0.offset + 1) of \(ranges.count))", range: $0.element) }
                }
                parts += 1
            }
        }
    }

    /// Where `range` is cut into `parts`: at the chunk start nearest each even cut (each after the
    /// cut before it), or at the even cut itself when no chunk starts between.
    static func cuts(of range: Range<Int>, into parts: Int, at starts: [Int]) -> [Int] {
        var cuts: [Int] = []
        for k in 1..<parts {
            let even = range.lowerBound + range.count * k / parts
            let after = cuts.last ?? range.lowerBound
            let candidates = starts.filter { $0 > after }
            cuts.append(candidates.min { abs($0 - even) < abs($1 - even) } ?? max(even, after + 1))
        }
        return cuts
    }
}
