import Foundation

/// A book of two short chapters with every metadata field, rendered in every format
/// (`formats: [mp3, m4b, opus]`, `split: chapters`), and how the tests read its files back.
public enum FormatsBook {
    public static let text = """
        CHAPTER 1. The Harbour

        The boats came in at dawn, low in the water and loud with gulls.

        Nobody on the quay said a word until the last rope was tied.

        CHAPTER 2. The Market

        By noon the fish were sold, the stalls were washed, and the square was quiet again.

        Only the cats stayed, patient as judges, under the empty tables.
        """

    public static let manifest = """
        title: Harbour Days
        author: A. Writer
        narrator: N. Reader
        description: Two short chapters about a harbour.
        genre: Fiction
        date: 2024-05-17
        publisher: Quay Press
        copyright: © 2024 A. Writer
        series: Coastal Tales
        series_index: 2
        isbn: 9780306406157
        language: en-GB
        formats: [mp3, m4b, opus]
        split: chapters
        sources:
          - path: book.txt
        """

    /// Decodes any file to 16-bit mono at `rate` with ffmpeg.
    public static func decode(_ file: URL, rate: Int) throws -> [Int16] {
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("formats-\(UUID().uuidString).raw")
        defer { try? FileManager.default.removeItem(at: raw) }
        let result = try CheckTool.run("ffmpeg", ["-v", "error", "-y", "-i", file.path, "-f", "s16le", "-acodec", "pcm_s16le", "-ac", "1",
                                             "-ar", "\(rate)", raw.path])
        guard result.status == 0 else { throw TestFailure("ffmpeg could not decode \(file.path): \(result.stderr)") }
        return try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// Every metadata field as ffprobe names it, in every format (each writer puts it where its
    /// format's readers look; ffprobe maps them back to these names).
    public static let expectedTags: [String: String] = [
        "title": "Harbour Days", "album": "Harbour Days", "artist": "A. Writer", "composer": "N. Reader",
        "genre": "Fiction", "copyright": "© 2024 A. Writer",
    ]

    /// A file's tags as ffprobe reads them, by lowercased key: the format's and (Ogg puts its
    /// comments there) the first stream's.
    public static func tags(_ file: URL) throws -> [String: String] {
        let probe = try CheckTool.probe(file, ["-show_format", "-show_streams"])
        let format = (probe["format"] as? [String: Any])?["tags"] as? [String: Any] ?? [:]
        let stream = ((probe["streams"] as? [[String: Any]])?.first?["tags"] as? [String: Any]) ?? [:]
        return stream.merging(format) { $1 }.reduce(into: [String: String]()) { $0[$1.key.lowercased()] = $1.value as? String }
    }
}
