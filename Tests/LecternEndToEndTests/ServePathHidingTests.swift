import Foundation
import Testing

/// No answer of `lectern serve` names a folder of the server: every kind of error the API
/// gives — bad uploads and manifests, an unknown voice preset, unknown ids, a run that fails
/// reading its source — in its body, in the runs' JSON and in the event stream, is searched for
/// the data folder's and the Config folder's paths (the workspace holding both).
struct ServePathHidingTests {
    @Test func noErrorNamesTheServersFolders() throws {
        let ws = try Workspace("serve-paths")
        // A Config folder above the data folder: the one a job's manifest finds.
        try FileManager.default.copyItem(at: Tool.packageRoot.appendingPathComponent("Config"), to: ws.url.appendingPathComponent("Config"))
        let serve = try ServeProcess(ws, arguments: ["--jobs-per-minute", "100"])
        defer { _ = serve.terminate() }
        let book = try ws.write("book.txt", APIBadInputTests.book)
        var answers: [(what: String, text: String)] = []
        func send(_ what: String, _ path: String, _ arguments: [String] = [], token: String? = nil, status: Int) throws {
            let answer = try serve.request(path, arguments, token: token)
            #expect(answer.status == status, "\(what): \(answer.status) \(answer.text)")
            answers.append((what, answer.text))
        }
        func manifest(_ text: String) -> [String] { ["-F", "document=@\(book.path)", "--form-string", "manifest=\(text)"] }

        try send("bad YAML", "/api/v1/jobs", manifest("title: [unclosed\nsources: [book.txt]\n"), status: 400)
        try send("an unknown voice preset", "/api/v1/jobs", manifest("title: T\nsources: [book.txt]\nvoice: {preset: nope}\n"), status: 400)
        #expect(answers.last?.text.contains("Config/voices.yml") == true, "\(answers.last?.text ?? "")")
        try send("a missing source", "/api/v1/jobs", manifest("title: T\nsources: [book.txt, missing.txt]\n"), status: 400)
        try send("a file named ..", "/api/v1/jobs", ["-F", "document=@\(book.path);filename=.."], status: 400)
        try send("an unknown job", "/api/v1/jobs/99999", status: 404)
        try send("an unknown run", "/api/v1/runs/99999", status: 404)
        try send("a job id that is a word", "/api/v1/jobs/word", status: 400)
        try send("an unknown voice's audition", "/api/v1/voices/nope/audition", status: 404)
        try send("an unknown feed", "/feeds/nope/feed.xml", token: "", status: 404)
        try send("no token", "/api/v1/jobs", token: "", status: 401)
        try send("a cancel of an unknown job", "/api/v1/jobs/99999/cancel", ["-X", "POST"], status: 404)

        let created = try serve.createJob(["document=@\(book.path)", "title=The Lamp"])
        try #require(created.status == 201, "\(created.text)")
        let id = try #require(created.object["id"] as? Int)
        try send("an unknown output", "/api/v1/jobs/\(id)/outputs/nope.mp3", status: 404)
        try send("an unknown voice", "/api/v1/jobs/\(id)", ["-X", "PATCH", "-H", "Content-Type: application/json", "--data-binary", #"{"voice": "nope"}"#],
                 status: 400)
        // The run fails reading its source: the file went away after the job was made.
        let inputs = try FileManager.default.contentsOfDirectory(atPath: serve.data.appendingPathComponent("jobs").path)
        for folder in inputs {
            try? FileManager.default.removeItem(at: serve.data.appendingPathComponent("jobs/\(folder)/input/book.txt"))
        }
        try send("the script of a job whose source is gone", "/api/v1/jobs/\(id)/script", status: 422)
        let run = try serve.render(job: id, timeout: 60)
        #expect(run["state"] as? String == "failed", "\(run)")
        let error = run["error"] as? String ?? ""
        #expect(error.contains("book.txt"), "the run's error does not name the job's file: \(error)")
        try send("the failed job", "/api/v1/jobs/\(id)", status: 200)
        try send("its runs", "/api/v1/jobs/\(id)/runs", status: 200)
        try send("its run", "/api/v1/runs/\(run["id"] as? Int ?? 0)", status: 200)
        try send("the jobs", "/api/v1/jobs", status: 200)
        let events = try serve.stream("/api/v1/jobs/\(id)/events", seconds: 1.5)
        #expect(events.contains("event: run") && events.contains("failed"), "\(events)")
        answers.append(("the event stream", events))

        let folders = Set([ws.url.path, ws.url.resolvingSymlinksInPath().path, serve.data.path,
                           ws.url.appendingPathComponent("Config").path])
        for (what, text) in answers {
            for folder in folders {
                #expect(!text.contains(folder) && !text.contains(folder.replacingOccurrences(of: "/", with: "\\/")),
                        "\(what) names the server's folder \(folder): \(text.prefix(600))")
            }
        }
    }
}
