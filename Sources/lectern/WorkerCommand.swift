import ArgumentParser
import Foundation
import LecternSpeech
import LecternRunner

/// `lectern worker` (hidden): a synthesis worker. Reads chunk requests from stdin, renders each
/// with this process's own espeak-ng and LAME, answers on stdout; exits at end of input, and at
/// once if the parent dies (its end of the request pipe hangs up), so no worker outlives a
/// killed run.
struct WorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Render chunks sent on stdin (used by `lectern run`).",
        shouldDisplay: false
    )

    func run() throws {
        // Ctrl-C in a terminal reaches the whole process group; the parent decides what stops.
        signal(SIGINT, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)  // a file size limit becomes a write error we report
        Self.exitWhenParentDies()
        let input = FileHandle.standardInput, output = FileHandle.standardOutput
        let environment = ProcessInfo.processInfo.environment
        // Fault injection for tests (debug builds only): crash on the chunk with this index.
        #if DEBUG
        let crashOn = environment["LECTERN_TEST_WORKER_CRASH_CHUNK"].flatMap(Int.init)
        #else
        let crashOn: Int? = nil
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
