import Foundation
import Testing

/// `lectern serve --max-concurrent 1`: a run started while another renders waits for its turn,
/// in the order the starts came; a queued job cannot be started twice; a queued run that is
/// cancelled never starts; the next one starts as soon as the slot is free.
///
/// The runs render nothing: with `--workers 0` and no `lectern worker` on the shared chunk
/// folder, a started run holds its slot until it is cancelled, so no timing decides the order.
@Suite struct ServeQueueTests {
    @Test func runsBeyondMaxConcurrentWaitInOrderAndACancelledOneNeverStarts() throws {
        let ws = try Workspace("serve-queue")
        let chunks = ws.url.appendingPathComponent("chunks")
        try FileManager.default.createDirectory(at: chunks, withIntermediateDirectories: true)
        let serve = try ServeProcess(ws, arguments: ["--workers", "0", "--chunks", chunks.path, "--max-concurrent", "1"])
        var ids: [Int] = []
        for name in ["first", "second", "third"] {
            let book = try ws.write("\(name).txt", "The \(name) book.\n\nIt has one short paragraph to read.\n")
            let created = try serve.createJob(["document=@\(book.path)", "title=\(name)"])
            try #require(created.status == 201, "\(created.text)")
            ids.append(try #require(created.object["id"] as? Int))
        }
        func job(_ id: Int) throws -> [String: Any] { try serve.request("/api/v1/jobs/\(id)").object }
        func state(_ id: Int) throws -> String? { (try job(id)["latestRun"] as? [String: Any])?["state"] as? String }
        func queued(_ id: Int) throws -> Bool? { try job(id)["queued"] as? Bool }

        // The first takes the only slot; the second and third wait, and say so.
        for id in ids {
            let started = try serve.request("/api/v1/jobs/\(id)/runs", ["-X", "POST"])
            #expect(started.status == 202, "job \(id): \(started.text)")
        }
        #expect(try eventually(timeout: 30, "the first run to start") { try state(ids[0]) == "running" }, "\(serve.logText)")
        #expect(try queued(ids[0]) == false)
        for id in ids.dropFirst() {
            #expect(try queued(id) == true, "job \(id) waits for its turn")
            #expect(try !(job(id)["latestRun"] is [String: Any]), "job \(id) has no run yet")
        }
        // A queued job is not queued twice.
        let again = try serve.request("/api/v1/jobs/\(ids[1])/runs", ["-X", "POST"])
        #expect(again.status == 409, "\(again.text)")

        // The third, cancelled while it waits, leaves the queue and never starts.
        let cancelThird = try serve.request("/api/v1/jobs/\(ids[2])/cancel", ["-X", "POST"])
        #expect(cancelThird.status == 202, "\(cancelThird.text)")
        #expect(try eventually(timeout: 10, "the third to leave the queue") { try queued(ids[2]) == false })

        // The first ends: the second starts in its slot; the third still has no run.
        #expect(try serve.request("/api/v1/jobs/\(ids[0])/cancel", ["-X", "POST"]).status == 202)
        #expect(try eventually(timeout: 30, "the first run cancelled") { try state(ids[0]) == "cancelled" })
        #expect(try eventually(timeout: 30, "the second run to start") { try state(ids[1]) == "running" }, "\(serve.logText)")
        #expect(try queued(ids[1]) == false)
        #expect(try state(ids[2]) == nil, "the cancelled queued job never ran")

        // The slot is the second's: a new start of the third waits again behind it.
        #expect(try serve.request("/api/v1/jobs/\(ids[2])/runs", ["-X", "POST"]).status == 202)
        #expect(try queued(ids[2]) == true)
        #expect(try serve.request("/api/v1/jobs/\(ids[1])/cancel", ["-X", "POST"]).status == 202)
        #expect(try eventually(timeout: 30, "the third run to start") { try state(ids[2]) == "running" }, "\(serve.logText)")
        #expect(serve.terminate().status == 0, "\(serve.logText)")
    }
}
