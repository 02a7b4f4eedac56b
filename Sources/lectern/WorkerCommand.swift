import ArgumentParser
import Foundation
import LecternSpeech
import LecternRunner
import LecternStore
import Logging

/// `lectern worker`: renders chunks for runs on any host.
///
/// As a service (the default), it claims chunks from the store's queue (a PostgreSQL store and
/// the chunk folder the hosts share, or a SQLite store on this host), renders `--slots` at a
/// time, and runs until SIGTERM/SIGINT, finishing the chunks it holds. With `--stdio` (how a run
/// starts its own workers) it reads chunk requests from stdin, renders each with this process's
/// own espeak-ng and LAME, and answers on stdout; it exits at end of input, and at once if the
/// parent dies (its end of the request pipe hangs up), so no worker outlives a killed run.
struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Render chunks for runs on a shared store (a long-running service).",
        discussion: "Example: lectern worker --store postgres://lectern@db.example/lectern --chunks /mnt/lectern-chunks"
    )

    @Flag(help: ArgumentHelp("Render chunk requests sent on stdin (how a run starts its own workers).", visibility: .hidden))
    var stdio = false

    @Option(help: "Chunks rendered at once (default: one per core).")
    var slots: Int?

    @Option(help: "Seconds a claim on a chunk lasts without a heartbeat; another worker takes a chunk whose lease ran out.")
    var lease: Double = 30

    @OptionGroup var store: StoreOptions

    func validate() throws {
        if let slots, slots < 1 { throw ValidationError("--slots must be at least 1") }
        if lease < 1 { throw ValidationError("--lease must be at least 1 second") }
    }

    func run() async throws {
        if stdio { return try renderStandardInput() }
        await reportingErrors(serve)
    }

    /// The service: claims and renders chunks until a signal stops it.
    private func serve() async throws {
        let opened = try await store.open()
        guard let shared = opened.shared else {
            throw ValidationError("a worker needs the chunk folder the hosts share: --chunks DIR (or $LECTERN_CHUNKS, or `chunks:` in Config/defaults.yml)")
        }
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "lectern.worker")
        logger.logLevel = .notice
        signal(SIGXFSZ, SIG_IGN)
        let worker = QueueWorker(store: opened.store, chunks: shared, cache: ChunkCache(store: opened.store),
                                 options: QueueWorker.Options(slots: slots ?? ProcessInfo.processInfo.activeProcessorCount, leaseDuration: lease),
                                 logger: logger)
        var sources: [DispatchSourceSignal] = []
        for number in [SIGTERM, SIGINT] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { worker.stop() }
            source.resume()
            sources.append(source)
        }
        FileHandle.standardError.write(Data("lectern worker: \(worker.identity) rendering for \(opened.store.name), chunks in \(shared.description)\n".utf8))
        try await worker.run()
        sources.forEach { $0.cancel() }
    }

    /// `--stdio`: renders requests from stdin until it ends.
    private func renderStandardInput() throws {
        // Ctrl-C in a terminal reaches the whole process group; the parent decides what stops.
        signal(SIGINT, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)  // a file size limit becomes a write error we report
        Self.exitWhenParentDies()
        let input = FileHandle.standardInput, output = FileHandle.standardOutput
        let environment = ProcessInfo.processInfo.environment
        // Fault injection for tests (debug builds only): crash on the chunk with this index.
        #if DEBUG
        let crashOn = environment["LECTERN_TEST_WORKER_CRASH_CHUNK"].flatMap(Int.init)
        // … or hang on it (a render that never ends: its lease must decide), first creating the
        // file named after the colon (`N:PATH`) so that the test knows.
        let stall = environment["LECTERN_TEST_STALL_CHUNK"]?.split(separator: ":", maxSplits: 1)
        let stallOn = stall?.first.flatMap { Int($0) }
        let stallMarker = stall?.count == 2 ? String(stall![1]) : nil
        #else
        let crashOn: Int? = nil
        let stallOn: Int? = nil
        let stallMarker: String? = nil
        #endif
        let engine: EspeakEngine
        do { engine = try EspeakEngine.shared() } catch {
            FileHandle.standardError.write(Data("worker: \(error)\n".utf8))
            throw ExitCode.failure
        }
        let renderer = ChunkRenderer(engine: engine, checkpoint: Self.killPoint(environment["LECTERN_TEST_KILL_AT"]))
        while let request = try MessageFraming.read(ChunkRequest.self, from: input) {
            if request.chunk.index == crashOn {
                FileHandle.standardError.write(Data("worker: crashing on chunk \(request.chunk.index) as asked by LECTERN_TEST_WORKER_CRASH_CHUNK\n".utf8))
                abort()
            }
            if request.chunk.index == stallOn {
                FileHandle.standardError.write(Data("worker: stalling on chunk \(request.chunk.index) as asked by LECTERN_TEST_STALL_CHUNK\n".utf8))
                if let stallMarker { _ = FileManager.default.createFile(atPath: stallMarker, contents: Data()) }
                while true { pause() }
            }
            var result: ChunkResult
            do { result = try renderer.render(request) } catch {
                result = ChunkResult(index: request.chunk.index, sampleCount: 0, audioFrames: 0, samplesPerFrame: 0, encoderDelay: 0,
                                     byteCount: 0, tagBytes: 0, items: [], error: "\(error)")
            }
            try MessageFraming.write(result, to: output)
        }
    }

    /// A thread that waits for stdin to hang up (the parent closed it or died) and ends the
    /// process; normal end of input is handled by the read loop first.
    static func exitWhenParentDies() {
        Thread.detachNewThread {
            var fds = pollfd(fd: 0, events: 0, revents: 0)  // events 0: only hang-up and errors
            while true {
                let n = poll(&fds, 1, -1)
                if n < 0, errno == EINTR { continue }
                if n != 0 { _exit(0) }
            }
        }
    }

    /// Fault injection for tests (`LECTERN_TEST_KILL_AT=synthesis:N` or `encoding:N`): SIGKILL the
    /// parent `lectern run` when chunk N reaches that step, as a crash or `kill -9` would.
    /// Compiled into debug builds only: a release binary ignores the variable.
    static func killPoint(_ spec: String?) -> (@Sendable (ChunkRenderer.Step, Int) -> Void)? {
        #if !DEBUG
        return nil
        #else
        guard let spec, let colon = spec.firstIndex(of: ":"), let step = ChunkRenderer.Step(rawValue: String(spec[..<colon])),
              let chunk = Int(spec[spec.index(after: colon)...]) else { return nil }
        return { reached, index in
            if reached == step, index == chunk { kill(getppid(), SIGKILL) }
        }
        #endif
    }
}
