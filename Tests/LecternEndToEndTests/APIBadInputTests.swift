import Foundation
import Testing

/// Malformed requests to `lectern serve` — multipart forms and manifests, over a real socket —
/// each refused with 400 (or 413/415) and a JSON error whose `field` names what is wrong and
/// whose message says why; none of them leaves a job, a file or a change behind. (Malformed
/// JSON and the session cookie are tested in process: LecternServeTests' `APIBadJSONTests`.)
struct APIBadInputTests {
    /// A request and what its refusal must say.
    struct Case {
        let what: String
        let arguments: [String]
        let status: Int
        let field: String
        /// Words the message must hold.
        let message: String
    }

    static let book = "CHAPTER 1\nThe Lamp\n\nThe lamp was lit at dusk, and the street grew quiet.\n"

    /// A raw multipart body: `parts` as given, then the closing boundary unless `closed` is false.
    static func form(_ parts: [String], boundary: String = "LecternBoundary", closed: Bool = true) -> String {
        parts.map { "--\(boundary)\r\n\($0)\r\n" }.joined() + (closed ? "--\(boundary)--\r\n" : "")
    }

    /// Sends each case (with the process's token, or `token`) and checks its refusal.
    static func expect(_ serve: ServeProcess, _ path: String, token: String? = nil, _ cases: [Case]) throws {
        for c in cases {
            let answer = try serve.request(path, c.arguments, token: token)
            #expect(answer.status == c.status, "\(c.what): \(answer.status) \(answer.text)")
            #expect(answer.headers["content-type"]?.hasPrefix("application/json") == true, "\(c.what): \(answer.headers)")
            #expect(answer.headers["x-content-type-options"] == "nosniff", "\(c.what): \(answer.headers)")
            #expect(answer.errorField == c.field, "\(c.what): field \(answer.errorField ?? "none"), not \(c.field): \(answer.text)")
            let message = answer.errorMessage ?? ""
            #expect(message.localizedCaseInsensitiveContains(c.message), "\(c.what): «\(message)» does not say \(c.message)")
        }
    }

    @Test func malformedFormsAndManifestsCreateNoJob() throws {
        let ws = try Workspace("api-bad-forms")
        let serve = try ServeProcess(ws, arguments: ["--jobs-per-minute", "100"])
        defer { _ = serve.terminate() }
        let book = try ws.write("book.txt", Self.book)
        func raw(_ name: String, _ body: String, type: String = "multipart/form-data; boundary=LecternBoundary") throws -> [String] {
            let file = try ws.write(name, body)
            return ["-X", "POST", "-H", "Content-Type: \(type)", "--data-binary", "@\(file.path)"]
        }
        let document = "Content-Disposition: form-data; name=\"document\"; filename=\"book.txt\"\r\nContent-Type: text/plain\r\n\r\n\(Self.book)"
        func manifest(_ text: String) -> [String] { ["-F", "document=@\(book.path)", "--form-string", "manifest=\(text)"] }
        try Self.expect(serve, "/api/v1/jobs", [
            Case(what: "no boundary", arguments: try raw("no-boundary", Self.form([document]), type: "multipart/form-data"),
                 status: 400, field: "Content-Type", message: "boundary"),
            Case(what: "not a form", arguments: try raw("json", "{\"document\": \"book.txt\"}", type: "application/json"),
                 status: 415, field: "Content-Type", message: "multipart/form-data"),
            Case(what: "cut short", arguments: try raw("cut", Self.form([document], closed: false)),
                 status: 400, field: "document", message: "closing boundary"),
            Case(what: "a part without a name",
                 arguments: try raw("nameless", Self.form(["Content-Disposition: form-data; filename=\"book.txt\"\r\n\r\n\(Self.book)"])),
                 status: 400, field: "Content-Disposition", message: "no name"),
            Case(what: "a file named ..",
                 arguments: try raw("dots", Self.form(["Content-Disposition: form-data; name=\"document\"; filename=\"..\"\r\n\r\n\(Self.book)"])),
                 status: 400, field: "document", message: "\"..\" cannot be used"),
            Case(what: "an unknown file field", arguments: ["-F", "script=@\(book.path)"],
                 status: 400, field: "script", message: "not one of"),
            Case(what: "a rate that is not a number", arguments: ["-F", "document=@\(book.path)", "-F", "rate=fast"],
                 status: 400, field: "rate", message: "rate must be a number from 0"),
            Case(what: "bad YAML", arguments: manifest("title: [unclosed\nsources: [book.txt]\n"),
                 status: 400, field: "manifest", message: "not YAML"),
            Case(what: "a rate out of range", arguments: manifest("sources: [book.txt]\nvoice: {rate: 3}\n"),
                 status: 400, field: "manifest.voice.rate", message: "rate"),
            Case(what: "a source on the server", arguments: manifest("sources: [/etc/passwd]\n"),
                 status: 400, field: "manifest.sources[0]", message: "may not name files on the server"),
            Case(what: "an output folder", arguments: manifest("sources: [book.txt]\noutput: /tmp/x\n"),
                 status: 400, field: "manifest.output", message: "leave `output:` out"),
        ])
        let jobs = try serve.request("/api/v1/jobs")
        #expect(jobs.status == 200 && (jobs.json as? [Any])?.isEmpty == true, "\(jobs.text)")
        for folder in ["jobs", "staging"] {
            let left = (try? FileManager.default.contentsOfDirectory(atPath: serve.data.appendingPathComponent(folder).path)) ?? []
            #expect(left.isEmpty, "\(folder)/ holds \(left)")
        }
        // The same form, well made, is taken: the refusals were about what each changed.
        let title = "Content-Disposition: form-data; name=\"title\"\r\n\r\nThe Lamp"
        let made = try serve.request("/api/v1/jobs", try raw("good", Self.form([document, title])))
        #expect(made.status == 201, "\(made.text)")
    }

    /// Every part of a form counts, empty ones too: no more than 64 files or text fields, no
    /// empty file, no two files of one name (an empty one would truncate the first); and a
    /// Windows path sent as a file's name keeps its last component.
    @Test func everyPartCountsAndAFileKeepsItsName() throws {
        let ws = try Workspace("api-form-parts")
        let serve = try ServeProcess(ws, arguments: ["--jobs-per-minute", "100"])
        defer { _ = serve.terminate() }
        func raw(_ name: String, _ parts: [String]) throws -> [String] {
            let file = try ws.write(name, Self.form(parts))
            return ["-X", "POST", "-H", "Content-Type: multipart/form-data; boundary=LecternBoundary", "--data-binary", "@\(file.path)"]
        }
        func file(_ name: String, _ content: String, field: String = "document") -> String {
            "Content-Disposition: form-data; name=\"\(field)\"; filename=\"\(name)\"\r\nContent-Type: text/plain\r\n\r\n\(content)"
        }
        let book = file("book.txt", Self.book)
        try Self.expect(serve, "/api/v1/jobs", [
            Case(what: "65 empty files", arguments: try raw("many", [book] + (1...64).map { file("empty-\($0).txt", "", field: "lexicon") }),
                 status: 400, field: "lexicon", message: "more than 64 files"),
            Case(what: "65 empty text fields",
                 arguments: try raw("fields", [book] + (1...65).map { "Content-Disposition: form-data; name=\"f\($0)\"\r\n\r\n" }),
                 status: 400, field: "f65", message: "more than 64 text fields"),
            Case(what: "an empty part named as the document", arguments: try raw("twice", [book, file("book.txt", "")]),
                 status: 400, field: "document", message: "two files of the form are named \"book.txt\""),
            Case(what: "an empty document", arguments: try raw("empty", [file("book.txt", "")]),
                 status: 400, field: "document", message: "\"book.txt\" is empty"),
            Case(what: "an empty lexicon", arguments: try raw("empty-lexicon", [book, file("words.pls", "", field: "lexicon")]),
                 status: 400, field: "lexicon", message: "\"words.pls\" is empty"),
            Case(what: "a file named as the manifest the service writes",
                 arguments: try raw("clash", [book, file("book.yml", "lexicon:\n  lamp: lamp\n", field: "lexicon")]),
                 status: 400, field: "lexicon", message: "\"book.yml\" has the name of the job's manifest"),
        ])
        #expect((try serve.request("/api/v1/jobs").json as? [Any])?.isEmpty == true)
        // As browsers and curl send it (backslashes as they are), and escaped as RFC 2616's quoted-string.
        let browser = try serve.request("/api/v1/jobs", try raw("windows", [file(#"C:\Users\me\lamp.txt"#, Self.book)]))
        #expect(browser.status == 201, "\(browser.text)")
        let manifest = browser.object["manifest"] as? String ?? ""
        #expect(manifest.contains("lamp.txt") && !manifest.contains("Users") && !manifest.contains("C:"), "\(manifest)")
        let escaped = try serve.request("/api/v1/jobs", try raw("escaped", [file(#"C:\\Users\\me\\street.txt"#, Self.book)]))
        #expect(escaped.status == 201, "\(escaped.text)")
        let second = escaped.object["manifest"] as? String ?? ""
        #expect(second.contains("street.txt") && !second.contains("Users"), "\(second)")
    }

    /// A job is refused when its run would be: the same checks as `lectern check` (words to
    /// narrate, the voices, the cover), each naming what is wrong; nothing is left behind.
    @Test func aJobItsRunWouldRefuseIsNotMade() throws {
        let ws = try Workspace("api-preflight")
        let serve = try ServeProcess(ws, arguments: ["--jobs-per-minute", "100"])
        defer { _ = serve.terminate() }
        let book = try ws.write("book.txt", Self.book)
        let noWords = try ws.write("marks.txt", "... !!! ???\n\n-- ;; --\n")
        let fakeCover = try ws.write("cover.jpg", "not a picture\n")
        try Self.expect(serve, "/api/v1/jobs", [
            Case(what: "a document without words", arguments: ["-F", "document=@\(noWords.path)"],
                 status: 422, field: "document", message: "no words to narrate"),
            Case(what: "an unknown voice in a manifest",
                 arguments: ["-F", "document=@\(book.path)", "--form-string", "manifest=title: T\nsources: [book.txt]\nvoice: {name: nope-voice}\n"],
                 status: 400, field: "manifest.voice.name", message: "nope-voice"),
            Case(what: "a cover that is not a picture", arguments: ["-F", "document=@\(book.path)", "-F", "cover=@\(fakeCover.path)"],
                 status: 422, field: "manifest", message: "cover.jpg cannot be used"),
        ])
        #expect((try serve.request("/api/v1/jobs").json as? [Any])?.isEmpty == true)
        let left = (try? FileManager.default.contentsOfDirectory(atPath: serve.data.appendingPathComponent("jobs").path)) ?? []
        #expect(left.isEmpty, "jobs/ holds \(left)")
    }
}
