import Foundation
import Testing

/// A `lectern daemon` process started by a test, its log in a file; killed if the test ends
/// without stopping it.
final class DaemonProcess: @unchecked Sendable {
    // @unchecked Sendable: `process` is set once in init; the rest is read-only.
    let process = Process()
    let log: URL

    /// - parameter store: The store's options (default: `--db` the workspace's SQLite store).
    init(_ ws: Workspace, jobs: String = "Jobs", arguments: [String] = [], name: String = "daemon", store: [String]? = nil,
         folder: URL? = nil) throws {
        log = ws.url.appendingPathComponent("\(name).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: Tool.lectern)
        process.arguments = ["daemon", "--jobs", ws.url.appendingPathComponent(jobs).path] + (store ?? ["--db", ws.db.path])
            + ["--poll", "0.25"] + arguments
        if let folder { process.currentDirectoryURL = folder }
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// Sends SIGTERM and waits up to `timeout` seconds; returns the exit status (nil: still
    /// running, then killed) and how long it took.
    func terminate(timeout: TimeInterval = 10) -> (status: Int32?, seconds: TimeInterval) {
        terminateProcess(process, timeout: timeout)
    }
}

/// Sends a test's process SIGTERM and waits up to `timeout` seconds; returns its exit status
/// (nil: it was still running, and was killed) and how long it took.
func terminateProcess(_ process: Process, timeout: TimeInterval) -> (status: Int32?, seconds: TimeInterval) {
    let start = Date()
    kill(process.processIdentifier, SIGTERM)
    let exited = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        process.waitUntilExit()
        exited.signal()
    }
    guard exited.wait(timeout: .now() + timeout) == .success else {
        kill(process.processIdentifier, SIGKILL)
        return (nil, Date().timeIntervalSince(start))
    }
    return (process.terminationStatus, Date().timeIntervalSince(start))
}

/// Waits until `condition` holds, looking every 0.2 s for at most `timeout` seconds; the
/// condition is a state the test observes (the store, a log), not a guess at how long work takes.
func eventually(timeout: TimeInterval, _ what: String, sourceLocation: SourceLocation = #_sourceLocation,
                _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(200_000)
    }
    if try condition() { return true }
    Issue.record("timed out after \(timeout) s waiting for \(what)", sourceLocation: sourceLocation)
    return false
}
