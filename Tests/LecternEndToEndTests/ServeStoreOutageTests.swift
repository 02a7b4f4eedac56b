import Foundation
import Testing
import LecternStore
import LecternTestSupport

/// `lectern serve` on a PostgreSQL store that stops answering (its processes stopped, as a cut
/// network looks to a client): API calls are answered 503 with `Retry-After` within the store's
/// deadline (`timeout=` of its address) and a message that names no address or folder, the
/// health check still answers, and everything works again once the store answers.
@Suite(.serialized) struct ServeStoreOutageTests {
    @Test func apiCallsFailFastWhileTheStoreDoesNotAnswer() throws {
        let ws = try Workspace("serve-store-outage")
        let store = try PausablePostgres(ws, timeout: 2)
        defer { store.close() }
        let serve = try ServeProcess(ws, store: store.arguments)
        defer { _ = serve.terminate() }
        let book = try ws.write("book.txt", APIBadInputTests.book)
        let created = try serve.createJob(["document=@\(book.path)", "title=The Lamp"])
        try #require(created.status == 201, "\(created.text)")
        let id = try #require(created.object["id"] as? Int)

        try store.pause()
        // Past the token cache (two seconds), so the token too is looked up in the store.
        Thread.sleep(forTimeInterval: 2.2)
        for (what, path, arguments) in [("the jobs", "/api/v1/jobs", [String]()), ("a job", "/api/v1/jobs/\(id)", []),
                                        ("a new job", "/api/v1/jobs", ["-F", "document=@\(book.path)"])] {
            let started = Date()
            let answer = try serve.request(path, arguments)
            let seconds = Date().timeIntervalSince(started)
            #expect(answer.status == 503 && answer.headers["retry-after"] == "5", "\(what): \(answer.status) \(answer.text)")
            #expect(answer.errorMessage?.contains("job store") == true, "\(what): \(answer.text)")
            #expect(!answer.text.contains(store.server.folder.path) && !answer.text.contains("postgres://") && !answer.text.contains(ws.url.path),
                    "\(what) names the store's address or folders: \(answer.text)")
            // The deadline (2 s), the wait for the connection's gate (2 s at most) and a loaded machine.
            #expect(seconds < 6, "\(what) answered after \(seconds) s")
        }
        let health = try serve.request("/api/v1/health", token: "")
        #expect(health.status == 200, "\(health.text)")
        #expect(serve.logText.contains("did not answer within 2 s"), "the log says why: \(serve.logText)")

        store.resume()
        #expect(try eventually(timeout: 20, "the jobs answered again") { try serve.request("/api/v1/jobs").status == 200 })
        #expect((try serve.request("/api/v1/jobs").json as? [Any])?.count == 1)
    }
}
