import Foundation
import Testing
import LecternRunner
import LecternTesting

/// The in-process route renders what the worker processes render, byte for byte: the demo's
/// settings on the opening of its two chapters, once on `lectern worker` processes and once in
/// this process, each with a store and cache of its own.
struct InProcessRouteTests {
    /// The binary the worker route starts (`lectern worker --stdio`): $LECTERN_BIN, else the debug build.
    static var lectern: URL {
        if let bin = ProcessInfo.processInfo.environment["LECTERN_BIN"], !bin.isEmpty { return URL(fileURLWithPath: bin) }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/lectern")
    }

    /// Jobs/demo.yml on the opening of its text: each chapter's heading and first two paragraphs.
    static func demo(in folder: JobFolder) throws -> URL {
        let text = try String(contentsOf: Corpus.packageRoot.appendingPathComponent("Jobs/texts/alice-chapters-1-2.txt"), encoding: .utf8)
        let chapters = text.components(separatedBy: "\nCHAPTER ").dropFirst().map { chapter in
            "CHAPTER " + chapter.components(separatedBy: "\n\n\n").prefix(2).joined(separator: "\n\n\n")
                .components(separatedBy: "\n\n").prefix(4).joined(separator: "\n\n")
        }
        try folder.write("alice.txt", chapters.joined(separator: "\n\n\n\n") + "\n")
        return try folder.write("demo.yml", """
            title: Alice's Adventures in Wonderland (chapters I and II)
            author: Lewis Carroll
            sources:
              - path: alice.txt
            voice: { name: en-gb, rate: 0.5 }
            timings: [json, html]
            """)
    }

    @Test func theInProcessRouteWritesTheWorkerProcessesBytes() async throws {
        let workers = try JobFolder("route-workers"), inProcess = try JobFolder("route-in-process")
        let byWorkers = try await workers.run(try Self.demo(in: workers)) { runner in
            runner.rendersInProcess = false
            runner.workerExecutable = Self.lectern
            runner.workers = 2
        }
        let byThisProcess = try await inProcess.run(try Self.demo(in: inProcess))
        #expect(byWorkers.record.chunksRendered == byWorkers.record.chunkCount && byWorkers.record.chapterCount == 2)
        #expect(byThisProcess.record.chunksRendered == byThisProcess.record.chunkCount)
        #expect(byThisProcess.chunks.map(\.key) == byWorkers.chunks.map(\.key), "the same chunks, under the same keys")
        let names = byWorkers.outputs.map(\.lastPathComponent)
        #expect(Set(names) == ["demo.mp3", "demo.timings.json", "demo.html"], "\(names)")
        #expect(byThisProcess.outputs.map(\.lastPathComponent) == names)
        for (a, b) in zip(byWorkers.outputs, byThisProcess.outputs) {
            #expect(try Data(contentsOf: a) == Data(contentsOf: b), "\(a.lastPathComponent) differs between the routes")
        }
    }
}
