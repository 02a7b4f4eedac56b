import Foundation
import LecternSpeech

/// Renders a run's chunks in this process instead of in worker processes: the same
/// ``ChunkRenderer`` on the same ``ChunkRequest``s, so the same streams byte for byte, cached
/// under the same ``ChunkKey``s. For tests and for programs that embed the runner
/// (``JobRunner/rendersInProcess``); `lectern run` always renders on worker processes.
///
/// **One chunk at a time, across the whole process.** libespeak-ng keeps its state in process
/// globals, so this process has one engine (``EspeakEngine/shared()``), and a chunk's audio is a
/// function of its request only if nothing else synthesizes while it renders: each chunk holds
/// the engine from its reset to its last item (``ChunkRenderer/render(_:)``). Chunks are rendered
/// in order on one thread of this renderer, and two in-process runs (two tests at once) take
/// turns chunk by chunk. Cancelling stops after the chunk being rendered: a thread cannot be
/// killed as a worker process is.
final class InProcessRenderer: LocalChunkRendering, @unchecked Sendable {
    // @unchecked Sendable is safe: `failure` and `stopped` are only touched while holding `lock`.
    private let lock = NSLock()
    private var failure: Error?
    private var stopped = false

    func run(_ requests: [ChunkRequest], onResult: (ChunkResult) async throws -> Void) async throws {
        lock.withLock {
            failure = nil
            stopped = false
        }
        let renderer = ChunkRenderer(engine: try EspeakEngine.shared())
        let (results, delivered) = AsyncStream.makeStream(of: ChunkResult.self)
        // A thread of its own: a render blocks (on the engine, held by another run's chunk too).
        Thread.detachNewThread { [self] in
            defer { delivered.finish() }
            for request in requests {
                guard !lock.withLock({ stopped }) else { return }
                do { delivered.yield(try renderer.render(request)) } catch {
                    // As the worker pool reports a worker's error.
                    terminate(RunError("chunk \(request.chunk.index + 1) (chapter \(request.chunk.chapter + 1)): \(error)"))
                    return
                }
            }
        }
        for await result in results {
            // After a failure the stream is drained (the thread stops) and the first error thrown.
            guard lock.withLock({ failure == nil }) else { continue }
            do { try await onResult(result) } catch { terminate(error) }
        }
        if let failure = lock.withLock({ failure }) { throw failure }
    }

    /// Stops handing out chunks; the chunk being rendered finishes, then `run` returns.
    func terminate(_ error: Error) {
        lock.withLock {
            if failure == nil { failure = error }
            stopped = true
        }
    }
}
