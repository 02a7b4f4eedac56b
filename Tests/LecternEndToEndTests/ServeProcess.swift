import Foundation
import Testing

/// A `lectern serve` process started by a test on a free port, with its data folder and store
/// in the test's workspace and an API token for an owner; killed if the test ends without
/// stopping it. Requests go through curl (no proxy), the way any HTTP client would send them.
final class ServeProcess: @unchecked Sendable {
    // @unchecked Sendable: every property is set once in init.
    let process = Process()
    let log: URL
    let data: URL
    let port: Int
    /// The token of `owner` (made with `lectern token add`).
    let token: String
    var base: String { "http://127.0.0.1:\(port)" }

    /// - parameters:
    ///     - store: The store's options (default: `--db` the workspace's SQLite store).
    ///     - data: The data folder (default: `data` in the workspace).
    ///     - launcher: A program that starts `lectern` in its own process (`prlimit … --`).
    init(_ ws: Workspace, owner: String = "alice", store: [String]? = nil, data: URL? = nil, arguments: [String] = [],
         name: String = "serve", launcher: [String] = []) throws {
        let store = store ?? ["--db", ws.db.path]
        self.data = data ?? ws.url.appendingPathComponent("data")
        let added = try Tool.run(Tool.lectern, ["token", "add", "\(owner)-\(name)-\(UUID().uuidString.prefix(8))", "--owner", owner] + store)
        try #require(added.status == 0, "lectern token add: \(added.stderr)")
        token = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        log = ws.url.appendingPathComponent("\(name).log")
        let out = ws.url.appendingPathComponent("\(name).out")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: launcher.first ?? Tool.lectern)
        process.arguments = (launcher.isEmpty ? [] : Array(launcher.dropFirst()) + [Tool.lectern])
            + ["serve", "--data", self.data.path, "--port", "0"] + store + arguments
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardOutput = try FileHandle(forWritingTo: out)
        try process.run()
        var found: Int?
        let deadline = Date().addingTimeInterval(30)
        while found == nil, Date() < deadline, process.isRunning {
            let text = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
            if let range = text.range(of: #"listening on http://[0-9.]+:([0-9]+)"#, options: .regularExpression) {
                found = Int(text[range].split(separator: ":").last ?? "")
            } else {
                usleep(100_000)
            }
        }
        guard let found else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw ServeFailure("lectern serve did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        }
        port = found
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    func terminate(timeout: TimeInterval = 10) -> (status: Int32?, seconds: TimeInterval) { terminateProcess(process, timeout: timeout) }

    /// An HTTP answer: status, headers (names lower-cased), body.
    struct Answer {
        let status: Int
        let headers: [String: String]
        let body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        var json: Any? { try? JSONSerialization.jsonObject(with: body) }
        var object: [String: Any] { json as? [String: Any] ?? [:] }
        /// The error's `field`, for a JSON error answer.
        var errorField: String? { (object["error"] as? [String: Any])?["field"] as? String }
        var errorMessage: String? { (object["error"] as? [String: Any])?["message"] as? String }
    }

    /// Sends a request with curl: `arguments` are curl's (`-X POST`, `-F document=@file`, `-H …`).
    /// With `token` nil the request carries this process's token; `""` sends none.
    func request(_ path: String, _ arguments: [String] = [], token: String? = nil) throws -> Answer {
        let headers = FileManager.default.temporaryDirectory.appendingPathComponent("serve-headers-\(UUID().uuidString)")
        let body = FileManager.default.temporaryDirectory.appendingPathComponent("serve-body-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: headers)
            try? FileManager.default.removeItem(at: body)
        }
        let bearer = token ?? self.token
        let auth = bearer.isEmpty ? [] : ["-H", "Authorization: Bearer \(bearer)"]
        let out = try Tool.run("/usr/bin/curl", ["-s", "-S", "--noproxy", "*", "--max-time", "120", "-o", body.path, "-D", headers.path,
                                                  "-w", "%{http_code}"] + auth + arguments + [base + path])
        guard out.status == 0, let status = Int(out.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ServeFailure("curl \(path): \(out.stderr)")
        }
        var fields: [String: String] = [:]
        let raw = (try? String(contentsOf: headers, encoding: .utf8)) ?? ""
        // The last block of headers (after a 100 Continue).
        for line in raw.components(separatedBy: "\r\n\r\n").filter({ !$0.isEmpty }).last?.components(separatedBy: "\r\n") ?? [] {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Answer(status: status, headers: fields, body: (try? Data(contentsOf: body)) ?? Data())
    }

    /// What an event stream sends in its first `seconds` (curl ends it then).
    func stream(_ path: String, seconds: Double) throws -> String {
        let out = try Tool.run("/usr/bin/curl", ["-s", "-N", "--noproxy", "*", "--max-time", "\(seconds)",
                                                  "-H", "Authorization: Bearer \(token)", base + path])
        guard out.status == 0 || out.status == 28 else { throw ServeFailure("curl \(path): \(out.stderr)") }
        return out.stdout
    }

    /// Creates a job from `files` (`field=@path` pairs) and text fields; returns its JSON.
    func createJob(_ form: [String]) throws -> Answer {
        try request("/api/v1/jobs", form.flatMap { ["-F", $0] })
    }

    /// Starts a run of job `id` and waits until its latest run has ended; returns that run.
    func render(job id: Int, timeout: TimeInterval = 300) throws -> [String: Any] {
        let started = try request("/api/v1/jobs/\(id)/runs", ["-X", "POST"])
        try #require(started.status == 202, "\(started.text)")
        var run: [String: Any] = [:]
        _ = try eventually(timeout: timeout, "job \(id)'s run to end") {
            run = (try request("/api/v1/jobs/\(id)").object["latestRun"] as? [String: Any]) ?? [:]
            return ["succeeded", "failed", "cancelled"].contains(run["state"] as? String ?? "")
        }
        return run
    }
}

struct ServeFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
