import Foundation
import Testing
import LecternTesting

/// Issue #17, must-show 4: text with no sentence boundary to cut at — 200,000 words without
/// punctuation, the same with lower-case words after its full stops, a 5 MB line without spaces —
/// renders with the peak resident memory of the `lectern` process and of every worker under
/// 200 MB, and every word timed.
///
/// Peaks are measured twice: by GNU time (`%M`, the largest of the process and the workers it
/// waited for) and by reading each process's `VmHWM` from /proc while the run goes on.
///
/// The full-size texts repeat a block of words (the line, a block of letters), so their parts
/// are equal and, as in any book with a repeated passage, each distinct chunk is synthesized once
/// and placed everywhere: the runs take seconds, not the hours of audio they hold, while the
/// parent still plans, lays out and times all of it and each worker synthesizes the largest
/// parts there are. That the workers' memory does not grow with the number of chunks they
/// render is shown by ``distinctTextStaysSmallOverManyChunks()``, a text of all different chunks.
@Suite(.serialized) struct BoundedMemoryTests {
    static let limitKB = 200 * 1024

    static let vocabulary = ["apple", "river", "stone", "window", "garden", "silver", "morning", "quiet", "table", "lantern",
                             "forest", "candle", "paper", "yellow", "harbor", "meadow", "pillow", "thunder", "bridge", "orange"]

    enum Input: String, CaseIterable, CustomTestStringConvertible {
        case noPunctuation, lowerCaseSentences, lineWithoutSpaces
        var testDescription: String { rawValue }

        var text: String {
            switch self {
            case .noPunctuation:
                let block: [String] = (0..<100).map { (i: Int) -> String in BoundedMemoryTests.vocabulary[(i * 7 + i / 3) % 20] }
                return Array(repeating: block.joined(separator: " "), count: 2000).joined(separator: " ") + "\n"
            case .lowerCaseSentences:
                // A full stop after every twelfth word, and the next word in lower case: no sentence ends.
                let block: [String] = (0..<60).map { (i: Int) -> String in
                    let word: String = BoundedMemoryTests.vocabulary[(i * 11 + i / 4) % 20]
                    return i % 12 == 11 ? word + "." : word
                }
                let whole: String = Array(repeating: block.joined(separator: " "), count: 200_000 / 60).joined(separator: " ")
                return whole + " " + block.prefix(200_000 % 60).joined(separator: " ") + "\n"
            case .lineWithoutSpaces:
                return String(repeating: "abcdefghij", count: 500_000) + "\n"
            }
        }
    }

    /// A run's exit status, stderr, and peaks in kB.
    struct Measured {
        var status: Int32
        var stderr: String
        /// GNU time's maximum resident set size.
        var maximumKB: Int
        /// Each process's own high-water mark, by its command line.
        var peaks: [(command: String, kb: Int)]
        var workers: [Int] { peaks.filter { $0.command.hasSuffix(" worker --stdio") }.map(\.kb) }
    }

    /// Runs `lectern run --quiet manifest` under GNU time, reading the `VmHWM` of it and of
    /// every process below it from /proc every 20 ms until it ends.
    static func measure(_ ws: Workspace, _ manifest: URL) throws -> Measured {
        let timing = ws.url.appendingPathComponent("time.txt"), errors = ws.url.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M", "-o", timing.path, Tool.lectern, "run", "--quiet", manifest.path, "--db", ws.db.path]
        process.standardOutput = FileHandle.nullDevice
        let errorHandle = try FileHandle(forWritingTo: errors)
        process.standardError = errorHandle
        try process.run()
        var peaks: [Int32: (command: String, kb: Int)] = [:]
        func sample() {
            var parents: [Int32: Int32] = [:]
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
                guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                      let close = stat.lastIndex(of: ")") else { continue }
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                if fields.count > 1, let ppid = Int32(fields[1]) { parents[pid] = ppid }
            }
            var below: Set<Int32> = [process.processIdentifier]
            var grew = true
            while grew {
                grew = false
                for (pid, ppid) in parents where below.contains(ppid) && !below.contains(pid) {
                    below.insert(pid)
                    grew = true
                }
            }
            for pid in below where pid != process.processIdentifier {
                guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                      let kb = Int(line.split(separator: " ").dropFirst().first ?? "") else { continue }
                let command = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")))
                    .map { String(decoding: $0, as: UTF8.self).split(separator: "\0").joined(separator: " ") } ?? "?"
                peaks[pid] = (peaks[pid]?.command ?? command, max(peaks[pid]?.kb ?? 0, kb))
            }
        }
        while process.isRunning {
            sample()
            Thread.sleep(forTimeInterval: 0.02)  // sampling interval, not synchronisation: the loop ends when the process does
        }
        process.waitUntilExit()
        try errorHandle.close()
        let lines = try String(contentsOf: timing, encoding: .utf8).split(separator: "\n")
        return Measured(status: process.terminationStatus, stderr: try String(contentsOf: errors, encoding: .utf8),
                        maximumKB: Int(lines.last ?? "") ?? Int.max, peaks: Array(peaks.values))
    }

    /// The sidecar's words, with whether each time was estimated (no engine mark in the word).
    struct Timings: Decodable {
        struct Word: Decodable { var offset: Int; var length: Int; var start: Int; var end: Int; var estimated: Bool? }
        struct Sentence: Decodable { var words: [Word] }
        struct Paragraph: Decodable { var kind: String; var text: String; var sentences: [Sentence] }
        struct Chapter: Decodable { var paragraphs: [Paragraph] }
        var chapters: [Chapter]
        var wordCount: Int
        var durationMs: Int
    }

    static func manifest(_ ws: Workspace, _ name: String, sources: [String]) throws -> URL {
        try ws.write("\(name).yml", """
            title: \(name)
            sources: [\(sources.joined(separator: ", "))]
            voice: { name: en-us, rate: 1.0 }
            audio: { bitrate: 56, quality: 9 }
            """)
    }

    /// Checks the run's peaks against the limit and returns its sidecar.
    static func checkedRun(_ ws: Workspace, _ name: String, sources: [String]) throws -> Timings {
        let measured = try measure(ws, try manifest(ws, name, sources: sources))
        try #require(measured.status == 0, "\(measured.stderr)")
        let report = measured.peaks.map { "\($0.command.split(separator: " ").dropFirst().first ?? ""): \($0.kb / 1024) MB" }
        #expect(measured.maximumKB < limitKB, "GNU time: \(measured.maximumKB / 1024) MB; \(report)")
        #expect(!measured.workers.isEmpty, "no worker process was seen: \(report)")
        for peak in measured.peaks { #expect(peak.kb < limitKB, "\(peak.command): \(peak.kb / 1024) MB") }
        return try JSONDecoder().decode(Timings.self, from: Data(contentsOf: ws.url.appendingPathComponent("out/\(name)/\(name).timings.json")))
    }

    /// Every word of `text` is in the sidecar, in order, its offsets slicing exactly that word,
    /// with times that never go backwards, nearly all from the engine's own word marks. (espeak-ng
    /// gives no mark to a lower-case word after a full stop, in any text: those are left out of
    /// the count.)
    static func expectEveryWordTimed(_ timings: Timings, text: String, estimatedAtMost: Double = 0.01) {
        let paragraphs = timings.chapters.flatMap(\.paragraphs).filter { $0.kind != "heading" }
        var sliced: [String] = []
        var starts: [Int] = []
        var estimated = 0
        for paragraph in paragraphs {
            let units = Array(paragraph.text.utf16)
            for word in paragraph.sentences.flatMap(\.words) {
                sliced.append(String(decoding: units[word.offset..<(word.offset + word.length)], as: UTF16.self))
                starts.append(word.start)
                if word.estimated == true, !(sliced.dropLast().last?.hasSuffix(".") ?? false) { estimated += 1 }
            }
        }
        let expected = independentWords(text)
        #expect(sliced.count == expected.count)
        #expect(sliced == expected)
        #expect(timings.wordCount == expected.count)
        #expect(starts == starts.sorted(), "word times go backwards")
        #expect(Double(estimated) <= Double(expected.count) * estimatedAtMost, "\(estimated) of \(expected.count) words have no engine mark")
    }

    @Test(arguments: Input.allCases) func textWithoutASentenceBoundaryRendersInBoundedMemory(_ input: Input) throws {
        let ws = try Workspace("bounded-\(input.rawValue)")
        let text = input.text
        try ws.write("long.txt", text)
        let timings = try Self.checkedRun(ws, "long", sources: ["long.txt"])
        Self.expectEveryWordTimed(timings, text: text)
        if input == .lineWithoutSpaces {
            // One word (no space in it), all of it spoken: 50 times as long as its first 100,000 characters alone.
            let reference = try Workspace("bounded-reference")
            try reference.write("short.txt", String(repeating: "abcdefghij", count: 10_000) + "\n")
            let short = try Self.checkedRun(reference, "short", sources: ["short.txt"])
            let ratio = Double(timings.durationMs) / Double(short.durationMs)
            #expect(abs(ratio - 50) < 1.5, "5,000,000 characters last \(timings.durationMs) ms, 100,000 last \(short.durationMs) ms")
            #expect(timings.chapters.flatMap(\.paragraphs).flatMap { $0.sentences.flatMap(\.words) }.map(\.length) == [5_000_000])
        }
    }

    /// A text of all different chunks (words drawn at random from a fixed seed): 12,000 words
    /// without punctuation, and a sentence of 8,000 words. Each worker renders many chunks and its
    /// peak stays within the limit.
    @Test func distinctTextStaysSmallOverManyChunks() throws {
        let ws = try Workspace("bounded-distinct")
        var state: UInt64 = 0x9E3779B97F4A7C15
        func word() -> String {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let syllables = ["ka", "lo", "mi", "ren", "tu", "sa", "vel", "no", "pri", "dan", "eo", "ti"]
            return (0..<(2 + Int(state >> 62))).map { syllables[Int((state >> (8 + 4 * UInt64($0))) % 12)] }.joined()
        }
        let unpunctuated = (0..<12_000).map { _ in word() }.joined(separator: " ") + "\n"
        let sentence = "The " + (0..<7_999).map { _ in word() }.joined(separator: " ") + ".\n"
        try ws.write("unpunctuated.txt", unpunctuated)
        try ws.write("sentence.txt", sentence)
        let timings = try Self.checkedRun(ws, "distinct", sources: ["unpunctuated.txt", "sentence.txt"])
        Self.expectEveryWordTimed(timings, text: unpunctuated + "\n" + sentence, estimatedAtMost: 0.02)
    }
}
