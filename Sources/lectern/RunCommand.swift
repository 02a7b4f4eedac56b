import ArgumentParser
import Foundation
import Logging
import LecternRunner
import LecternStore

/// `lectern run MANIFEST…`: renders each manifest.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Render one or more job manifests into MP3 and timing sidecars.",
        discussion: "Example: lectern run Jobs/alice.yml"
    )

    @Argument(help: "Manifest files (YAML).")
    var manifests: [String]

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    @Flag(help: "Print one JSON object per run (outputs, counts, duration, chunks rendered and reused) as a JSON array on stdout, and nothing else there.")
    var json = false

    @Flag(help: "Show progress even when stderr is not a terminal: a plain line every few seconds. (On a terminal a bar is shown unless --quiet.)")
    var progress = false

    @Option(help: "Synthesis worker processes on this host (default: one per core); with a shared chunk folder, 0 leaves every chunk to `lectern worker`s.")
    var workers: Int?

    @Flag(help: "After rendering, print peak memory of this process and of its largest worker to stderr.")
    var stats = false

    @Flag(help: "Render every chunk again, ignoring the chunk cache.")
    var force = false

    @Flag(help: "Also write NAME.html, a read-along page that plays the MP3 and highlights each word (as `timings: [html]`).")
    var readalong = false

    @OptionGroup var store: StoreOptions

    func validate() throws {
        if let workers, workers < 0 { throw ValidationError("--workers must be 0 or more") }
        if manifests.isEmpty { throw ValidationError("name at least one manifest (or document) to render") }
    }

    func run() async throws {
        await reportingErrors(renderAll)
    }

    private func renderAll() async throws {
        try ArgumentCheck.requireFiles(manifests, what: "manifest or document")
        let opened = try await store.open(near: URL(fileURLWithPath: manifests[0]).standardizedFileURL.deletingLastPathComponent())
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "lectern")
        logger.logLevel = .warning
        let printer = ProgressPrinter(plainLines: progress)
        var runner = JobRunner(store: opened.store, logger: logger, workers: workers,
                               progress: quiet ? nil : { @Sendable p in printer.update(p) })
        runner.sharedChunks = opened.shared
        if workers == 0 && opened.shared == nil {
            throw ValidationError("--workers 0 leaves every chunk to `lectern worker`s, which needs a chunk folder they share (--chunks DIR)")
        }
        runner.force = force
        runner.extraTimings = readalong ? [.html] : []
        runner.warnings = { @Sendable message in
            printer.finish()
            FileHandle.standardError.write(Data("lectern: warning: \(message)\n".utf8))
        }
        let control = RunControl()
        runner.control = control
        let signals = SignalHandlers(control: control)
        runner.assemblyCheckpoint = Self.assemblyKillPoint()
        var failures = 0
        var reports: [RunReport] = []
        for path in manifests {
            if control.cancellation != nil { break }
            do {
                let summary = try await runner.run(manifest: URL(fileURLWithPath: path))
                if stats {
                    let phases = summary.phases.map { "\($0.name) \(String(format: "%.1f", $0.seconds)) s" }.joined(separator: ", ")
                    FileHandle.standardError.write(Data("\(path): \(phases)\n".utf8))
                }
                reports.append(RunReport(manifest: path, summary: summary))
                if !quiet && !json {
                    let r = summary.run
                    let minutes = Double(r.durationMs ?? 0) / 60000
                    let counts = "\(r.chapterCount ?? 0) chapters, \(r.wordCount ?? 0) words"
                    let chunks = "\(r.chunksRendered) of \(r.chunkCount ?? 0) chunks rendered, \(r.chunksReused) reused"
                    print("\(path): \(counts), \(String(format: "%.1f", minutes)) min; \(chunks)")
                    for output in summary.outputs { print(summary.upToDate ? "  up to date: \(output.path)" : "  wrote \(output.path)") }
                    for line in summary.skips?.lines ?? [] { print("  " + line) }
                }
            } catch {
                printer.finish()
                failures += 1
                printError(error)
                reports.append(RunReport(manifest: path, error: error))
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(reports), as: UTF8.self))
        }
        if stats {
            var own = rusage(), children = rusage()
            getrusage(RUSAGE_SELF.rawValue, &own)
            getrusage(RUSAGE_CHILDREN.rawValue, &children)
            func cpu(_ u: rusage) -> String { String(format: "%.1f s", Double(u.ru_utime.tv_sec) + Double(u.ru_utime.tv_usec) / 1e6) }
            // A worker's own peak (VmHWM before it stops): its ru_maxrss includes this process's at the spawn.
            FileHandle.standardError.write(Data("peak RSS: lectern \(own.ru_maxrss / 1024) MB, largest worker \(WorkerMemory.largestPeakKiB / 1024) MB\n".utf8))
            FileHandle.standardError.write(Data("CPU: lectern \(cpu(own)), workers \(cpu(children))\n".utf8))
        }
        if let signal = signals.received { throw ExitCode(128 + signal) }
        if failures > 0 { throw ExitCode.failure }
    }

    /// Fault injection for tests (`LECTERN_TEST_KILL_AT=assembly:N`): SIGKILL this process once
    /// N chunks are copied into the book's MP3. Compiled into debug builds only.
    static func assemblyKillPoint() -> (@Sendable (Int) -> Void)? {
        #if !DEBUG
        return nil
        #else
        guard let spec = ProcessInfo.processInfo.environment["LECTERN_TEST_KILL_AT"], spec.hasPrefix("assembly:"),
              let after = Int(spec.dropFirst("assembly:".count)) else { return nil }
        return { copied in if copied + 1 == after { kill(getpid(), SIGKILL) } }
        #endif
    }
}
