import Foundation
import Testing
import LecternTestSupport

/// A job's edit (`PATCH`) and a start of its run, sent at once, fifty times against one real
/// `lectern serve`: the store decides between them in one transaction each, so the edit either
/// comes first (both succeed, and the run uses the edited manifest) or is refused with 409 because
/// the run came first (and the run uses the manifest before it) — never an accepted edit that a
/// started run does not see. Which manifest a run used is read from its `bookHash` (the title is
/// part of it), which must be one value per title.
///
/// The runs render nothing (`--workers 0`, no worker on the chunk folder): each is cancelled
/// before the next race.
@Suite struct ServeEditRaceTests {
    @Test func anEditAndARunStartOfOneJobNeverBothWinAgainstEachOther() throws {
        let ws = try Workspace("serve-edit-race")
        let chunks = ws.url.appendingPathComponent("chunks")
        try FileManager.default.createDirectory(at: chunks, withIntermediateDirectories: true)
        let serve = try ServeProcess(ws, arguments: ["--workers", "0", "--chunks", chunks.path, "--max-concurrent", "4", "--jobs-per-minute", "1000"])
        defer { _ = serve.terminate() }
        let book = try ws.write("race.txt", "The race book.\n\nIt has one short paragraph to read.\n")
        let created = try serve.createJob(["document=@\(book.path)", "title=Alpha"])
        try #require(created.status == 201, "\(created.text)")
        let id = try #require(created.object["id"] as? Int)
        let probe = try StoreProbe(ws.db)

        var current = "Alpha"
        var hashes: [String: Set<String>] = [:]
        var outcomes: [String: Int] = [:]
        for race in 0..<50 {
            let target = current == "Alpha" ? "Beta" : "Alpha"
            let before = try probe.runs().last?.id ?? 0
            let edit = try curl(serve, "/api/v1/jobs/\(id)", ["-X", "PATCH", "-H", "Content-Type: application/json",
                                                             "-d", #"{"title": "\#(target)"}"#])
            // Sent up to 20 ms later, so that either may reach the store first.
            usleep(UInt32.random(in: 0...20_000))
            let start = try curl(serve, "/api/v1/jobs/\(id)/runs", ["-X", "POST"])
            let (edited, started) = (edit.finish(), start.finish())
            outcomes["edit \(edited.status), start \(started.status)", default: 0] += 1
            #expect(started.status == 202, "race \(race): the job was idle, so the start is accepted: \(started.body)")
            #expect(edited.status == 200 || edited.status == 409, "race \(race): \(edited.body)")
            if edited.status == 409 {
                #expect(edited.body.contains("queued or under way"), "race \(race): \(edited.body)")
            }
            if edited.status == 200 { current = target }
            guard started.status == 202 else { continue }

            // The run's book hash tells which manifest it read: the edited one exactly when the edit was accepted.
            var hash: String?
            #expect(try eventually(timeout: 30, "race \(race): the run planned") {
                hash = try probe.runs().last { ($0.id ?? 0) > before }?.bookHash
                return hash != nil
            }, "\(serve.logText)")
            hashes[current, default: []].insert(hash ?? "")

            #expect(try serve.request("/api/v1/jobs/\(id)/cancel", ["-X", "POST"]).status == 202)
            // Idle again once an edit (to the title it has) is accepted.
            #expect(try eventually(timeout: 30, "race \(race): the job idle again") {
                try serve.request("/api/v1/jobs/\(id)", ["-X", "PATCH", "-H", "Content-Type: application/json",
                                                         "-d", #"{"title": "\#(current)"}"#]).status == 200
            })
        }
        #expect(hashes.values.allSatisfy { $0.count == 1 }, "one book hash per title, so every run used the manifest its race's outcome says: \(hashes)")
        #expect(hashes.count == 2, "runs read both titles, so the edit won some races: \(outcomes)")
        #expect(Set(hashes.values.flatMap { $0 }).count == hashes.count, "the two titles hash apart: \(hashes)")
        #expect(outcomes.values.reduce(0, +) == 50, "\(outcomes)")
        print("ServeEditRaceTests: \(outcomes)")
    }

    /// A request sent now, answered later (so two go at once): each its own curl process.
    final class Pending {
        let process = Process()
        let out = Pipe()
        let body: URL

        init(_ serve: ServeProcess, _ path: String, _ arguments: [String]) throws {
            body = FileManager.default.temporaryDirectory.appendingPathComponent("race-\(UUID().uuidString)")
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            process.arguments = ["-s", "--noproxy", "*", "--max-time", "60", "-o", body.path, "-w", "%{http_code}",
                                 "-H", "Authorization: Bearer \(serve.token)"] + arguments + [serve.base + path]
            process.standardOutput = out
            try process.run()
        }

        func finish() -> (status: Int, body: String) {
            let status = Int(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)) ?? 0
            process.waitUntilExit()
            defer { try? FileManager.default.removeItem(at: body) }
            return (status, (try? String(contentsOf: body, encoding: .utf8)) ?? "")
        }
    }

    func curl(_ serve: ServeProcess, _ path: String, _ arguments: [String]) throws -> Pending { try Pending(serve, path, arguments) }
}
