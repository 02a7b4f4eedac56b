import Foundation
#if canImport(Glibc)
import Glibc
#endif
import LecternSpeech

/// One synthesis worker: the `lectern` binary started in worker mode (`lectern worker --stdio`), fed
/// chunk requests on its stdin and answering on its stdout. Its stderr is kept (the last few
/// kilobytes) for error messages.
final class WorkerProcess: @unchecked Sendable {
    // @unchecked Sendable is safe: the process and pipes are used by one caller at a time (the
    // pool's thread, or the queue slot's task) that owns this worker; `stderrTail` is guarded by `lock` (the reader thread appends to it).
    private let process = Process()
    private let input = Pipe(), output = Pipe(), errors = Pipe()
    private let lock = NSLock()
    private var stderrTail = Data()
    private let stderrDone = DispatchSemaphore(value: 0)

    var pid: Int32 { process.processIdentifier }

    /// Starts `executable worker`, which inherits this process's environment.
    init(executable: URL) throws {
        process.executableURL = executable
        process.arguments = ["worker", "--stdio"]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let fd = errors.fileHandleForReading.fileDescriptor
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { break }
                lock.lock()
                stderrTail.append(contentsOf: buffer[0..<n])
                if stderrTail.count > 8192 { stderrTail = stderrTail.suffix(4096) }
                lock.unlock()
            }
            stderrDone.signal()
        }
    }

    /// Sends a request and waits for the answer; nil if the worker died before answering.
    func render(_ request: ChunkRequest) -> ChunkResult? {
        do {
            try MessageFraming.write(request, to: input.fileHandleForWriting)
            return try MessageFraming.read(ChunkResult.self, from: output.fileHandleForReading)
        } catch {
            return nil
        }
    }

    /// What the worker wrote to stderr, after it has exited.
    func stderrText() -> String {
        _ = stderrDone.wait(timeout: .now() + 2)
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: stderrTail, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// How the process ended, after `stop()` or a crash.
    var exitDescription: String {
        process.waitUntilExit()
        switch process.terminationReason {
        case .uncaughtSignal: return "killed by signal \(process.terminationStatus)"
        default: return "exited with status \(process.terminationStatus)"
        }
    }

    /// Closes the worker's input (it exits at end of input) and waits for it, noting its peak
    /// memory first (``WorkerMemory``).
    func stop() {
        if process.isRunning { WorkerMemory.record(pid: process.processIdentifier) }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Sends the worker a signal (from any thread).
    func signal(_ number: Int32) {
        if process.isRunning { Glibc.kill(process.processIdentifier, number) }
    }

    /// Kills the worker at once.
    func kill() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}

/// The worker's blocking calls for a caller in a task: each on a thread of its own (``OffPool``).
extension WorkerProcess {
    /// ``render(_:)``, off the task's thread.
    func rendering(_ request: ChunkRequest) async -> ChunkResult? { await OffPool.run { self.render(request) } }

    /// Kills the worker and tells how it ended and what it wrote to stderr.
    func killed() async -> (exit: String, stderr: String) {
        await OffPool.run {
            self.kill()
            return (self.exitDescription, self.stderrText())
        }
    }

    /// ``kill()``, off the task's thread.
    func killing() async { await OffPool.run { self.kill() } }

    /// ``stop()``, off the task's thread.
    func stopping() async { await OffPool.run { self.stop() } }
}
