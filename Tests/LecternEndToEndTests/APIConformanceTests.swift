import Foundation
import Testing

/// Schemathesis from PyPI, installed by `make test` (`make test-python`) into `.python/` of the
/// clone: it reads an OpenAPI description, generates requests for every operation (valid ones and
/// malformed ones) and checks each answer against the description.
enum Schemathesis {
    static let folder = Tool.packageRoot.appendingPathComponent(".python")
    static let python = "/usr/bin/python3"

    static let available: Bool = {
        guard let out = try? Tool.run(python, ["-c", "import schemathesis"], environment: ["PYTHONPATH": folder.path]) else { return false }
        return out.status == 0
    }()
}

/// `lectern serve` against its committed description, docs/openapi.yaml: a real server with a
/// rendered job (so ids of a job, a run, an output, a feed and an episode exist) and two jobs of
/// their own for DELETE and for rotating a feed's secret; then schemathesis sends generated
/// requests, valid and malformed, to every route and checks that no answer is a 5xx and that each
/// answer's status, media type, headers and JSON are the ones the description documents for it.
@Suite(.enabled(if: Schemathesis.available, "needs schemathesis in .python/ (make test-python installs it from PyPI)"))
struct APIConformanceTests {
    static let spec = Tool.packageRoot.appendingPathComponent("docs/openapi.yaml")

    @Test func everyRouteAnswersAsTheOpenAPIDescriptionSays() throws {
        let ws = try Workspace("api-conformance")
        // Room for the jobs schemathesis creates; past the limit 429 is documented too.
        let serve = try ServeProcess(ws, arguments: ["--jobs-per-minute", "60"])
        defer { _ = serve.terminate() }
        let book = try ws.write("book.txt", "CHAPTER 1\nThe Lamp\n\nThe lamp was lit at dusk, and the street grew quiet.\n\n"
                                + "CHAPTER 2\nThe Door\n\nSomeone knocked twice, then waited in the rain.\n")
        let created = try serve.createJob(["document=@\(book.path)", "title=Conformance"])
        try #require(created.status == 201, "\(created.text)")
        let id = try #require(created.object["id"] as? Int)
        let run = try serve.render(job: id)
        try #require(run["state"] as? String == "succeeded", "\(run)")
        let runId = try #require(run["id"] as? Int)
        // A job of its own for DELETE, so the rendered one stays for the other routes.
        let spare = try serve.createJob(["document=@\(book.path)", "title=Spare"])
        try #require(spare.status == 201, "\(spare.text)")
        let spareId = try #require(spare.object["id"] as? Int)
        // And one for rotating its feed's secret, so the rendered one's feed keeps its address.
        let rotating = try serve.createJob(["document=@\(book.path)", "title=Rotating"])
        try #require(rotating.status == 201, "\(rotating.text)")
        let rotatingId = try #require(rotating.object["id"] as? Int)

        let job = try serve.request("/api/v1/jobs/\(id)").object
        let outputs = job["outputs"] as? [[String: Any]] ?? []
        let mp3 = try #require(outputs.first { ($0["name"] as? String)?.hasSuffix(".mp3") == true }?["name"] as? String, "\(outputs)")
        let feed = try #require(job["feed"] as? String)
        let secret = feed.split(separator: "/").dropFirst().first.map(String.init) ?? ""
        let voices = try serve.request("/api/v1/voices?language=en").json as? [[String: Any]] ?? []
        let voice = try #require(voices.first?["name"] as? String, "no English voice listed")

        // The feed's episode, as its enclosure names it: `audio/ID.EXT`, `chapters/ID.json`, `transcripts/ID.vtt`.
        let rss = try serve.request(feed, token: "")
        try #require(rss.status == 200, "\(rss.status) \(rss.text)")
        let enclosure = try #require(rss.text.range(of: #"/audio/[^"/]+""#, options: .regularExpression).map { rss.text[$0].dropFirst(7).dropLast() },
                                     "no enclosure in \(rss.text)")
        let episode = (String(enclosure) as NSString).deletingPathExtension
        let config = """
            [parameters]
            "path.id" = \(id)
            "path.run" = \(runId)
            "path.secret" = "\(secret)"

            [[operations]]
            include-name = "DELETE /api/v1/jobs/{id}"
            parameters = { "path.id" = \(spareId) }

            [[operations]]
            include-path = "/api/v1/jobs/{id}/feed/rotate"
            parameters = { "path.id" = \(rotatingId) }

            [[operations]]
            include-path = "/api/v1/jobs/{id}/outputs/{name}"
            parameters = { "path.name" = "\(mp3)" }

            [[operations]]
            include-path = "/api/v1/voices/{name}/audition"
            parameters = { "path.name" = "\(voice)" }

            [[operations]]
            include-path = "/feeds/{secret}/audio/{file}"
            parameters = { "path.file" = "\(enclosure)" }

            [[operations]]
            include-path = "/feeds/{secret}/chapters/{file}"
            parameters = { "path.file" = "\(episode).json" }

            [[operations]]
            include-path = "/feeds/{secret}/transcripts/{file}"
            parameters = { "path.file" = "\(episode).vtt" }

            [[operations]]
            include-path = "/api/v1/jobs/{id}/events"
            max-stream-events = 1
            request-timeout = 5

            """
        let configFile = try ws.write("schemathesis.toml", config)
        let checks = ["not_a_server_error", "status_code_conformance", "content_type_conformance", "response_headers_conformance",
                      "response_schema_conformance"]
        let start = Date()
        let out = try Tool.run(Schemathesis.python, ["-m", "schemathesis.cli", "--config-file", configFile.path, "--no-color", "run",
                                                     Self.spec.path, "--url", serve.base, "-H", "Authorization: Bearer \(serve.token)",
                                                     "--checks", checks.joined(separator: ","), "--phases", "examples,coverage,fuzzing",
                                                     "--max-examples", "15", "--seed", "27", "--workers", "1",
                                                     "--generation-with-security-parameters", "false", "--generation-database", "none",
                                                     "--request-timeout", "30"],
                               environment: ["PYTHONPATH": Schemathesis.folder.path], in: ws.url)
        let seconds = Date().timeIntervalSince(start)
        #expect(out.status == 0, "schemathesis found answers that do not match docs/openapi.yaml:\n\(out.stdout.suffix(12_000))\n\(out.stderr.suffix(2000))")
        #expect(seconds < 110, "schemathesis took \(Int(seconds)) s")
        // The server survived it all, and the rendered job is whole.
        let after = try serve.request("/api/v1/jobs/\(id)/outputs/\(mp3)", ["-r", "0-9"])
        #expect(after.status == 206 && after.body.count == 10, "\(after.status) \(after.headers)")
        #expect(!serve.logText.contains("Fatal error"), "\(serve.logText.suffix(2000))")
    }
}
