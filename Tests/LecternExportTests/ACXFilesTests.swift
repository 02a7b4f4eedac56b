import Testing
import LecternExport

/// `profile: acx`'s files: a chapter over ACX's 120 minutes in parts under it, cut where chunks
/// begin, and every other chapter as it is.
@Suite struct ACXFilesTests {
    let rate = 22050
    var minute: Int { 60 * rate }

    @Test func chaptersUnderTheLimitAreOneFileEach() {
        let chapters = [("Opening Credits", 0..<(minute / 6)), ("Chapter 1", (minute / 6)..<(119 * minute))]
        let files = ACXFiles.files(chapters: chapters, chunkStarts: Array(stride(from: 0, to: 119 * minute, by: minute)), sampleRate: rate)
        #expect(files == chapters.map { ACXFiles.File(title: $0.0, range: $0.1) })
    }

    @Test func aLongChapterIsCutWhereChunksBeginIntoPartsUnderTheLimit() {
        // A 250-minute chapter after a 10-minute one; chunks of 61 s (not dividing the chapter evenly).
        let chapters = [("Chapter 1", 0..<(10 * minute)), ("Chapter 2", (10 * minute)..<(260 * minute))]
        let starts = Array(stride(from: 0, to: 260 * minute, by: 61 * rate))
        let files = ACXFiles.files(chapters: chapters, chunkStarts: starts, sampleRate: rate)
        #expect(files.map(\.title) == ["Chapter 1", "Chapter 2 (part 1 of 3)", "Chapter 2 (part 2 of 3)", "Chapter 2 (part 3 of 3)"])
        let parts = files.dropFirst()
        #expect(parts.first?.range.lowerBound == 10 * minute && parts.last?.range.upperBound == 260 * minute)
        for (a, b) in zip(parts, parts.dropFirst()) {
            #expect(a.range.upperBound == b.range.lowerBound, "the parts follow one another")
            #expect(starts.contains(b.range.lowerBound), "a part begins where a chunk does: \(b.range.lowerBound)")
        }
        for part in parts {
            #expect(part.range.count <= ACXFiles.longestSeconds * rate)
            #expect(abs(part.range.count - 250 * minute / 3) <= 61 * rate, "about a third each: \(part.range.count / minute) min")
        }
    }

    @Test func sparseChunksGiveMorePartsRatherThanOneOverTheLimit() {
        // Chunks 100 minutes apart: cutting a 200-minute chapter in two at a chunk start would
        // leave a part over the limit.
        let chapter = ("Book", 0..<(200 * minute))
        let files = ACXFiles.files(chapters: [chapter], chunkStarts: [0, 30 * minute, 130 * minute], sampleRate: rate)
        #expect(files.count >= 2)
        #expect(files.allSatisfy { $0.range.count <= ACXFiles.longestSeconds * rate && !$0.range.isEmpty })
        #expect(files.first?.range.lowerBound == 0 && files.last?.range.upperBound == 200 * minute)
        #expect(zip(files, files.dropFirst()).allSatisfy { $0.range.upperBound == $1.range.lowerBound })
    }
}
