import Foundation
import Testing
import LecternStore
import LecternTesting

/// Crash safety: `lectern run` killed with SIGKILL at each stage, stopped with SIGTERM, run twice
/// at once, and out of disk space — the previous outputs stay intact, the store stays sound, no
/// temporary file stays behind, and the next run continues without redoing finished chunks.
@Suite(.enabled(if: Corpus.available, "needs ../shared/corpus (the shared test corpus) beside the clone"))
struct CrashSafetyTests {
    /// The first two chapters of Alice (about 3,700 words, a dozen chunks) at a given rate.
    static func aliceJob(_ ws: Workspace, wpm: Int) throws -> URL {
        if !ws.exists("alice.txt") {
            let all = try String(contentsOf: Corpus.file("text/pg11-alice-in-wonderland.txt"), encoding: .utf8)
            try ws.write("alice.txt", all.components(separatedBy: "\n").prefix(400).joined(separator: "\n"))
        }
        return try ws.write("alice.yml", """
            title: Alice, the opening
            sources:
              - path: alice.txt
                chapters: { heading: '^CHAPTER [IVXLC]+\\.$', subtitle: true, skip_before_first: true }
            voice: { name: en-gb, wpm: \(wpm) }
            """)
    }

    struct Outputs: Equatable {
        var mp3: Data
        var timings: Data
    }

    static func outputs(_ ws: Workspace) throws -> Outputs {
        try Outputs(mp3: Data(contentsOf: ws.url.appendingPathComponent("out/alice/alice.mp3")),
                    timings: Data(contentsOf: ws.url.appendingPathComponent("out/alice/alice.timings.json")))
    }

    /// Every #2 check on the finished book.
    static func expectComplete(_ ws: Workspace) throws {
        let mp3 = ws.url.appendingPathComponent("out/alice/alice.mp3")
        let sidecar = try Sidecar.load(ws.url.appendingPathComponent("out/alice/alice.timings.json"))
        #expect(try BookChecks.chapterTitles(mp3) == sidecar.chapters.map(\.title))
        #expect(sidecar.chapters.count == 2)
        let pcm = try Tool.decode(mp3)
        BookChecks.expectDurationMatches(pcm, sidecar)
        let picks = sidecar.chapters.indices.flatMap { c in
            stride(from: 1, to: sidecar.chapters[c].paragraphs.count, by: 4).map { (chapter: c, paragraph: $0) }
        }
        #expect(BookChecks.expectOnsetsMatch(pcm, sidecar, picks: picks) >= 10)
        BookChecks.expectWordCoverage(input: try String(contentsOf: ws.url.appendingPathComponent("alice.txt"), encoding: .utf8), sidecar)
    }

    /// Starts `lectern run` without waiting for it.
    static func start(_ ws: Workspace, _ manifest: URL, environment: [String: String] = [:]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Tool.lectern)
        process.arguments = ["run", "--quiet", manifest.path, "--db", ws.db.path]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        return (process, errors)
    }

    /// Polls the store until `condition` holds for the newest run (a condition, not a fixed wait).
    /// If it never does, the run is killed (so no process outlives the test) and what the store
    /// holds is recorded.
    static func waitFor(_ ws: Workspace, _ process: Process, _ condition: (RunRecord, StoreProbe) throws -> Bool) throws -> Bool {
        let deadline = Date().addingTimeInterval(120)
        let probe = try StoreProbe(ws.db)  // opened once (and created, if the run has not yet)
        while process.isRunning, Date() < deadline {
            if let run = try? probe.runs().last, try condition(run, probe) { return true }
            usleep(20_000)
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        let runs = (try? probe.runs()) ?? []
        Issue.record("condition never held; runs: \(runs.map { "\($0.state) \($0.chunksRendered)/\($0.chunkCount ?? 0) \($0.error ?? "")" })")
        return false
    }

    @Test func killedAtEveryStageTheNextRunFinishesWithoutRedoingRecordedChunks() throws {
        let ws = try Workspace("sigkill")
        _ = try Self.aliceJob(ws, wpm: 200)
        let first = try Tool.lectern(["run", "--quiet", ws.url.appendingPathComponent("alice.yml").path], db: ws.db)
        try #require(first.status == 0, "\(first.stderr)")
        let previous = try Self.outputs(ws)

        // A new rate changes every chunk; each killed run leaves some of them recorded.
        let manifest = try Self.aliceJob(ws, wpm: 240)
        var recorded: Set<String> = []
        for point in ["synthesis:4", "encoding:8", "assembly:3"] {
            let (process, errors) = try Self.start(ws, manifest, environment: ["LECTERN_TEST_KILL_AT": point])
            _ = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL, "\(point): the run was not killed")

            // While it is dead: the old outputs are whole and readable, the store is sound.
            #expect(try Self.outputs(ws) == previous, "\(point): the previous outputs changed")
            #expect(try Tool.decode(ws.url.appendingPathComponent("out/alice/alice.mp3")).count > 22050 * 60)
            let probe = try StoreProbe(ws.db)
            #expect(try probe.store.integrityCheck() == "ok")
            let killed = try probe.lastRun()
            #expect(killed.state == .running, "nobody has noticed the death yet")
            let rendered = Set(try probe.rendered(by: killed).map(\.key))
            #expect(rendered.isDisjoint(with: recorded), "\(point): chunks recorded by an earlier run were rendered again")
            recorded.formUnion(rendered)
            #expect(!recorded.isEmpty || point == "synthesis:4")
        }

        let last = try Tool.lectern(["run", "--quiet", manifest.path], db: ws.db)
        try #require(last.status == 0, "\(last.stderr)")
        let probe = try StoreProbe(ws.db)
        let runs = try probe.runs()
        let final = runs.last!
        #expect(Set(try probe.rendered(by: final).map(\.key)).isDisjoint(with: recorded))
        #expect(final.chunksReused >= recorded.count)
        #expect(runs.dropFirst().dropLast().allSatisfy { $0.state == .interrupted }, "\(runs.map(\.state))")
        #expect(final.resumesRunId == runs[runs.count - 2].id)
        #expect(try probe.store.integrityCheck() == "ok")
        #expect(temporaryFiles(in: [ws.url]).isEmpty, "left behind: \(temporaryFiles(in: [ws.url]))")
        #expect(try Self.outputs(ws) != previous)
        try Self.expectComplete(ws)
    }

    @Test func sigtermCancelsCleanlyAndTheNextRunContinues() throws {
        let ws = try Workspace("sigterm")
        let manifest = try Self.aliceJob(ws, wpm: 200)
        let (process, errors) = try Self.start(ws, manifest, environment: [:])
        let started = try Self.waitFor(ws, process) { run, probe in try !probe.rendered(by: run).isEmpty }
        try #require(started, "no chunk was recorded before the run ended")
        let workers = ParallelRenderTests.children(of: process.processIdentifier)
        #expect(!workers.isEmpty)
        kill(process.processIdentifier, SIGTERM)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + SIGTERM, "\(stderr)")
        #expect(stderr.contains("cancelled (stopped by SIGTERM)"), "\(stderr)")
        let running = workers.filter { pid in
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            return !stat.isEmpty && !stat.contains(") Z ")
        }
        #expect(running.isEmpty, "workers still running after the run stopped: \(running)")
        let probe = try StoreProbe(ws.db)
        let cancelled = try probe.lastRun()
        #expect(cancelled.state == .cancelled)
        #expect(!ws.exists("out/alice/alice.mp3"), "a cancelled first run writes no output")
        #expect(temporaryFiles(in: [ws.url]).isEmpty, "left behind: \(temporaryFiles(in: [ws.url]))")
        let done = try probe.rendered(by: cancelled).map(\.key)

        let next = try Tool.lectern(["run", "--quiet", manifest.path], db: ws.db)
        try #require(next.status == 0, "\(next.stderr)")
        let final = try probe.lastRun()
        #expect(final.resumesRunId == cancelled.id)
        #expect(Set(try probe.rendered(by: final).map(\.key)).isDisjoint(with: done))
        try Self.expectComplete(ws)
    }

    @Test func aSecondRunOfTheSameJobIsRefusedWhileTheFirstRenders() throws {
        let ws = try Workspace("concurrent")
        let manifest = try Self.aliceJob(ws, wpm: 200)
        let (process, errors) = try Self.start(ws, manifest)
        let leased = try Self.waitFor(ws, process) { run, probe in try probe.store.lease(jobId: run.jobId)?.runId == run.id }
        try #require(leased, "the first run never held the lease")
        let second = try Tool.lectern(["run", "--quiet", manifest.path], db: ws.db)
        #expect(second.status == 1)
        #expect(second.stderr.contains("is already being rendered by process \(process.processIdentifier)"), "\(second.stderr)")
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stderr)")
        let probe = try StoreProbe(ws.db)
        #expect(try probe.runs().map(\.state) == [.succeeded], "the refused run records nothing")
        #expect(try probe.store.integrityCheck() == "ok")
        try Self.expectComplete(ws)
    }

    @Test func aFullDiskFailsTheRunAndKeepsThePreviousOutputs() throws {
        let ws = try Workspace("diskfull")
        let disk = ws.url.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        // A 4 MB tmpfs holds the first book but not it and one three times as long.
        let mount = try Tool.run("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", disk.path])
        guard mount.status == 0 else {
            // Without the right to mount, a file size limit makes the same write fail.
            try Self.expectWriteFailureKeepsOutputs(ws, output: ws.url.appendingPathComponent("out/alice"), limit: "4000000")
            return
        }
        defer { _ = try? Tool.run("umount", ["-l", disk.path]) }
        try Self.expectWriteFailureKeepsOutputs(ws, output: disk, limit: nil)
    }

    static func expectWriteFailureKeepsOutputs(_ ws: Workspace, output: URL, limit: String?) throws {
        let all = try String(contentsOf: Corpus.file("text/pg11-alice-in-wonderland.txt"), encoding: .utf8).components(separatedBy: "\n")
        func job(lines: Int) throws -> URL {
            try ws.write("alice.txt", all.prefix(lines).joined(separator: "\n"))
            return try ws.write("alice.yml", """
                title: Alice, the opening
                output: \(output.path)
                sources:
                  - path: alice.txt
                    chapters: { heading: '^CHAPTER [IVXLC]+\\.$', subtitle: true, skip_before_first: true }
                voice: { name: en-gb, wpm: 300 }
                audio: { bitrate: 56 }
                """)
        }
        func run(_ manifest: URL) throws -> Tool.Output {
            let arguments = ["run", "--quiet", manifest.path, "--db", ws.db.path]
            guard let limit else { return try Tool.run(Tool.lectern, arguments) }
            return try Tool.run("prlimit", ["--fsize=\(limit)", Tool.lectern] + arguments)
        }
        let small = try run(try job(lines: 200))
        try #require(small.status == 0, "\(small.stderr)")
        let mp3 = output.appendingPathComponent("alice.mp3"), timings = output.appendingPathComponent("alice.timings.json")
        let before = try Outputs(mp3: Data(contentsOf: mp3), timings: Data(contentsOf: timings))

        let big = try run(try job(lines: 600))
        #expect(big.status == 1)
        #expect(big.stderr.contains(limit == nil ? "No space left on device" : "File too large"), "\(big.stderr)")
        #expect(big.stderr.contains(output.path), "the error names the file: \(big.stderr)")
        #expect(try Outputs(mp3: Data(contentsOf: mp3), timings: Data(contentsOf: timings)) == before)
        #expect(try Tool.decode(mp3).count > 22050 * 60, "the previous MP3 still decodes")
        let probe = try StoreProbe(ws.db)
        #expect(try probe.lastRun().state == .failed)
        #expect(try probe.lastRun().error?.contains(output.path) == true)
        #expect(try probe.store.integrityCheck() == "ok")
        #expect(temporaryFiles(in: [output, ws.url]).isEmpty, "left behind: \(temporaryFiles(in: [output, ws.url]))")
    }
}
