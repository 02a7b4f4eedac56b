import Foundation
import Testing

/// A `lectern worker` service started by a test as if on a host of its own: its own folder (its
/// chunk cache), the shared store and chunk folder, its stderr in a log; killed if the test ends
/// without stopping it.
final class WorkerHost: @unchecked Sendable {
    // @unchecked Sendable: `process` is set once in init; the rest is read-only.
    let process = Process()
    let folder: URL
    let log: URL

    init(_ ws: Workspace, name: String, store: [String], slots: Int = 1, lease: Double = 3, environment: [String: String] = [:]) throws {
        folder = ws.url.appendingPathComponent("hosts/\(name)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".lectern"), withIntermediateDirectories: true)
        log = ws.url.appendingPathComponent("\(name).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: Tool.lectern)
        process.arguments = ["worker", "--slots", "\(slots)", "--lease", "\(lease)"] + store
        process.currentDirectoryURL = folder
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    var pid: Int32 { process.processIdentifier }
    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// SIGTERM, then waits (killing it after `timeout`); returns the exit status.
    @discardableResult
    func terminate(timeout: TimeInterval = 20) -> Int32? {
        terminateProcess(process, timeout: timeout).status
    }
}

/// A `lectern run` going on in the background while a test watches the store.
final class BackgroundRun: @unchecked Sendable {
    // @unchecked Sendable: `process` and the pipes are set once in init.
    let process = Process()
    private let out = Pipe(), err = Pipe()
    private let group = DispatchGroup()
    nonisolated(unsafe) private var outData = Data()
    nonisolated(unsafe) private var errData = Data()

    init(_ arguments: [String], in folder: URL) throws {
        process.executableURL = URL(fileURLWithPath: Tool.lectern)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.standardOutput = out
        process.standardError = err
        try process.run()
        group.enter()
        DispatchQueue.global().async { [self] in
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async { [self] in
            outData = out.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// Waits for the run to end (at most `timeout` seconds, then kills it).
    func wait(timeout: TimeInterval = 300) -> Tool.Output {
        if group.wait(timeout: .now() + timeout) != .success { kill(process.processIdentifier, SIGKILL); group.wait() }
        process.waitUntilExit()
        let output = Tool.Output(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                                 stderr: String(decoding: errData, as: UTF8.self))
        CheckRunParityTests.expectNoFoundationText(output.stdout + output.stderr)
        return output
    }
}
