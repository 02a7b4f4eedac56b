import Foundation
import Testing
import LecternStore
import LecternTestSupport

/// A PostgreSQL server of a test's own (stopping the shared one would stall every other test)
/// with one database, whose address carries a short deadline, and a shared chunk folder; its
/// processes can be stopped (SIGSTOP, as a cut network looks to a client) and continued. Close
/// it in a `defer`: it continues what it stopped and stops the server.
final class PausablePostgres {
    let server: PostgresTestServer
    let address: PostgresAddress
    let chunks: URL
    private var stopped: [Int32] = []

    /// - parameter timeout: the store's deadline in seconds (`timeout=` of its address).
    init(_ ws: Workspace, timeout: TimeInterval) throws {
        server = try PostgresTestServer()
        var address = try server.createDatabase()
        address.timeout = timeout
        self.address = address
        chunks = ws.url.appendingPathComponent("shared-chunks")
        try FileManager.default.createDirectory(at: chunks, withIntermediateDirectories: true)
    }

    /// The store options of a `lectern` command on it.
    var arguments: [String] { ["--store", address.description, "--chunks", chunks.path] }

    /// Stops the server's processes: it takes connections and answers nothing.
    func pause() throws {
        stopped = try Self.serverProcesses(server)
        for pid in stopped { kill(pid, SIGSTOP) }
    }

    /// Continues the processes ``pause()`` stopped.
    func resume() {
        for pid in stopped.reversed() { kill(pid, SIGCONT) }
        stopped = []
    }

    /// The server's processes: the postmaster (from `postmaster.pid`) and its children.
    private static func serverProcesses(_ server: PostgresTestServer) throws -> [Int32] {
        let pidFile = server.folder.appendingPathComponent("data/postmaster.pid")
        let text = try String(contentsOf: pidFile, encoding: .utf8)
        let postmaster = try #require(text.split(separator: "\n").first.flatMap { Int32($0) })
        var children: [Int32] = []
        for entry in try FileManager.default.contentsOfDirectory(atPath: "/proc") {
            guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // Fields after the command: state, ppid, …
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, Int32(fields[1]) == postmaster { children.append(pid) }
        }
        return [postmaster] + children
    }

    func close() {
        resume()
        server.stop()
    }
}
