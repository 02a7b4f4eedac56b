import Foundation
import Logging
import LecternCore
import LecternSpeech

/// A pool of synthesis worker processes, one per core by default, driven from this process with
/// threads: each worker has a thread that takes the next chunk, sends it and waits for the
/// answer. libespeak-ng cannot run on two threads of one process, so parallelism is processes.
///
/// A worker that dies is replaced and its chunk retried once; a second failure of the same chunk
/// fails the run with the chunk and the worker's stderr in the error.
public final class WorkerPool: LocalChunkRendering, @unchecked Sendable {
    // @unchecked Sendable is safe: mutable state (`queue`, `attempts`, `failure`, `stopped`)
    // is only touched while holding `lock`.
    public let executable: URL
    public let count: Int
    let logger: Logger
    private let lock = NSLock()
    private var queue: [ChunkRequest] = []
    private var attempts: [Int: Int] = [:]
    private var failure: Error?
    private var stopped = false
    private var live: [Int: WorkerProcess] = [:]

    /// - parameters:
    ///     - executable: The `lectern` binary (default: this process's own executable).
    ///     - count: Worker processes to run (default: the number of active cores).
    public init(executable: URL? = nil, count: Int? = nil, logger: Logger) {
        self.executable = executable ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        self.count = max(1, count ?? ProcessInfo.processInfo.activeProcessorCount)
        self.logger = logger
    }

    /// Renders every request; `onResult` is called once per chunk, never concurrently, in the
    /// order chunks finish. The workers' threads hand results over through a stream, so the
    /// caller's task records each one (an async store) while the workers go on rendering.
    ///
    /// - throws: ``RunError`` when a chunk fails twice or a worker reports an error; the first
    ///   error thrown by `onResult`.
    public func run(_ requests: [ChunkRequest], onResult: (ChunkResult) async throws -> Void) async throws {
        lock.withLock {
            queue = requests
            attempts = [:]
            failure = nil
            stopped = false
        }
        let (results, delivered) = AsyncStream.makeStream(of: ChunkResult.self)
        let group = DispatchGroup()
        for slot in 0..<min(count, max(1, requests.count)) {
            group.enter()
            Thread.detachNewThread { [self] in
                defer { group.leave() }
                drive(slot: slot) { result in delivered.yield(result) }
            }
        }
        group.notify(queue: .global()) { delivered.finish() }
        for await result in results {
            // After a failure the stream is drained (the workers stop) and the first error thrown.
            guard lock.withLock({ failure == nil }) else { continue }
            do { try await onResult(result) } catch { cancel(error) }
        }
        if let failure = lock.withLock({ failure }) { throw failure }
    }

    /// Stops handing out chunks; running chunks finish, then `run` returns.
    public func cancel(_ error: Error) {
        lock.lock()
        if failure == nil { failure = error }
        stopped = true
        lock.unlock()
    }

    /// Stops at once: no more chunks, and every worker is killed (its chunk is abandoned; the
    /// stream it was writing is in the run's temporary folder, which the run removes).
    public func terminate(_ error: Error) {
        lock.lock()
        if failure == nil { failure = error }
        stopped = true
        let workers = Array(live.values)
        lock.unlock()
        for worker in workers { worker.signal(SIGKILL) }
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    private func register(_ worker: WorkerProcess?, slot: Int) {
        lock.lock()
        live[slot] = worker
        let stop = stopped
        lock.unlock()
        if stop { worker?.signal(SIGKILL) }
    }

    private func next() -> ChunkRequest? {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped, !queue.isEmpty else { return nil }
        return queue.removeFirst()
    }

    private func drive(slot: Int, deliver: (ChunkResult) -> Void) {
        var worker: WorkerProcess?
        defer {
            register(nil, slot: slot)
            worker?.stop()
        }
        while let request = next() {
            do {
                if worker == nil {
                    worker = try start()
                    register(worker, slot: slot)
                }
                guard let current = worker else { continue }
                if let result = current.render(request) {
                    if let message = result.error {
                        cancel(RunError("chunk \(request.chunk.index + 1) (chapter \(request.chunk.chapter + 1)): \(message)"))
                        return
                    }
                    deliver(result)
                    continue
                }
                // The worker died: replace it and retry the chunk once (unless the pool is stopping
                // and killed it).
                current.kill()
                if isStopped { return }
                let why = current.exitDescription, stderr = current.stderrText()
                worker = nil
                lock.lock()
                let tries = attempts[request.chunk.index, default: 0] + 1
                attempts[request.chunk.index] = tries
                if tries < 2 { queue.insert(request, at: 0) }
                lock.unlock()
                logger.warning("worker died", metadata: ["chunk": "\(request.chunk.index + 1)", "exit": "\(why)", "stderr": "\(stderr)"])
                if tries >= 2 {
                    let first = request.chunk.items.first?.text.prefix(60) ?? ""
                    cancel(RunError("chunk \(request.chunk.index + 1) (chapter \(request.chunk.chapter + 1), starting \"\(first)…\") failed twice: "
                                    + "worker \(why)" + (stderr.isEmpty ? "" : "; its stderr: \(stderr)")))
                    return
                }
            } catch {
                cancel(error)
                return
            }
        }
    }

    private func start() throws -> WorkerProcess {
        do { return try WorkerProcess(executable: executable) } catch {
            throw RunError("cannot start a worker (\(executable.path) worker): \(FileError.reason(error))")
        }
    }
}
