import ArgumentParser
import Foundation
import LecternSpeech
import LecternRunner

/// `lectern worker` (hidden): a synthesis worker. Reads chunk requests from stdin, renders each
/// with this process's own espeak-ng and LAME, answers on stdout; exits at end of input.
struct WorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Render chunks sent on stdin (used by `lectern run`).",
        shouldDisplay: false
    )

    func run() throws {
        let input = FileHandle.standardInput, output = FileHandle.standardOutput
        // Fault injection for tests: crash on the chunk with this index.
        let crashOn = ProcessInfo.processInfo.environment["LECTERN_TEST_WORKER_CRASH_CHUNK"].flatMap(Int.init)
        let engine: EspeakEngine
        do { engine = try EspeakEngine.shared() } catch {
            FileHandle.standardError.write(Data("worker: \(error)\n".utf8))
            throw ExitCode.failure
        }
        let renderer = ChunkRenderer(engine: engine)
        while let request = try MessageFraming.read(ChunkRequest.self, from: input) {
            if request.chunk.index == crashOn {
                FileHandle.standardError.write(Data("worker: crashing on chunk \(request.chunk.index) as asked by LECTERN_TEST_WORKER_CRASH_CHUNK\n".utf8))
                abort()
            }
            var result: ChunkResult
            do { result = try renderer.render(request) } catch {
                result = ChunkResult(index: request.chunk.index, sampleCount: 0, audioFrames: 0, samplesPerFrame: 0, encoderDelay: 0,
                                     byteCount: 0, items: [], error: "\(error)")
            }
            try MessageFraming.write(result, to: output)
        }
    }
}
