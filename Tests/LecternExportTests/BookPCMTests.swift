import Foundation
import Testing
import LecternAudio
import LecternExport

/// ``BookPCM`` lays each chunk's kept PCM at its place on the book's timeline, silence between,
/// and hands each target exactly its range — the book's file all of it, a chapter's file its own.
struct BookPCMTests {
    /// Collects what it is given.
    final class Capture: PCMSink {
        var samples: [Int16] = []
        var finished = 0
        func write(_ samples: UnsafeBufferPointer<Int16>) throws { self.samples += samples }
        func finish() throws { finished += 1 }
    }

    @Test func chunksLieWhereTheMP3PlaysThemAndEachTargetGetsItsRange() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bookpcm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Three chunks of 50,000, 70,000 and 40,000 samples (more than one read block each), each
        // sample its own value, laid at 0, 52,000 and 124,000: gaps of 2,000 samples.
        let lengths = [50_000, 70_000, 40_000], starts = [0, 52_000, 124_000]
        var chunks: [BookPCM.Chunk] = []
        var expected = [Int16](repeating: 0, count: 170_000)
        for (i, (length, start)) in zip(lengths, starts).enumerated() {
            let url = folder.appendingPathComponent("\(i).flac")
            let file = try PCMChunkFile(url: url, sampleRate: 22_050)
            let samples = (0..<length).map { Int16(truncatingIfNeeded: ($0 * 7 + i * 1000) % 20_000 + 1) }
            try file.write(samples[...])
            try file.finish()
            for (k, s) in samples.enumerated() { expected[start + k] = s }
            chunks.append(BookPCM.Chunk(url: url, startSample: start, sampleCount: length))
        }
        let book = Capture(), second = Capture(), empty = Capture()
        var made: [String] = []
        let targets = [
            BookPCM.Target(range: 0..<170_000) { made.append("book"); return book },
            BookPCM.Target(range: 52_000..<122_000) { made.append("second"); return second },
            BookPCM.Target(range: 122_000..<122_000) { made.append("empty"); return empty },
        ]
        try BookPCM(chunks: chunks, sampleCount: 170_000).stream(to: targets)
        #expect(book.samples == expected, "the book is the chunks at their places, silence between, and silence to its end")
        #expect(second.samples == Array(expected[52_000..<122_000]))
        #expect(empty.samples.isEmpty && empty.finished == 1, "an empty range still makes its (empty) file")
        #expect([book, second].allSatisfy { $0.finished == 1 })
        #expect(made.firstIndex(of: "second")! > made.firstIndex(of: "book")!, "a chapter's encoder starts when the stream reaches it")
    }

    @Test func aChunkWhosePCMIsShorterThanRecordedIsAnError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bookpcm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("short.flac")
        let file = try PCMChunkFile(url: url, sampleRate: 22_050)
        try file.write([Int16](repeating: 5, count: 1000)[...])
        try file.finish()
        let sink = Capture()
        #expect(throws: ExportError.self) {
            try BookPCM(chunks: [BookPCM.Chunk(url: url, startSample: 0, sampleCount: 2000)], sampleCount: 2000)
                .stream(to: [BookPCM.Target(range: 0..<2000) { sink }])
        }
    }
}
