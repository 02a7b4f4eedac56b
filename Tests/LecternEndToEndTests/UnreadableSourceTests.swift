import Foundation
import Testing

/// Only what can be read is read, and only inside the job's folder: `check`, `run`, `init` and the
/// API refuse a PDF sent as a text, naming the file and what it holds; a page that links a file
/// outside its folder is read without it, and nothing says whether that file exists.
struct UnreadableSourceTests {
    static let pdf = "%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
    static let page = """
        <html lang="en"><head><title>The Lamp</title>
        <link rel="stylesheet" href="/etc/passwd"><link rel="pronunciation" href="../../../../etc/passwd"></head>
        <body><h1>The Lamp</h1><p>The lamp was lit at dusk, and the street grew quiet.</p></body></html>
        """

    @Test func checkRunAndInitRefuseAPDFNamedAsText() throws {
        let ws = try Workspace("unreadable")
        try ws.write("book.txt", Self.pdf)
        let manifest = try ws.write("job.yml", "title: Book\nsources: [book.txt]\n")
        for arguments in [["check", manifest.path], ["run", "--quiet", manifest.path], ["check", ws.url.appendingPathComponent("book.txt").path],
                          ["init", ws.url.appendingPathComponent("book.txt").path, "-o", ws.url.appendingPathComponent("new.yml").path]] {
            let result = arguments[0] == "run" ? try Tool.lectern(arguments, db: ws.db) : try Tool.run(Tool.lectern, arguments)
            #expect(result.status != 0, "\(arguments[0]): \(result.stdout)")
            #expect(result.stderr.contains("book.txt: a PDF document: not read yet"), "\(arguments[0]): \(result.stderr)")
        }
        #expect(!ws.exists("out/job/job.mp3"))
        #expect(!ws.exists("new.yml"))
    }

    @Test func aPageLinkingFilesOutsideItsFolderIsCheckedWithoutThem() throws {
        let ws = try Workspace("outside-links")
        let page = try ws.write("page.html", Self.page)
        let result = try Tool.run(Tool.lectern, ["check", "--text", page.path])
        #expect(result.status == 0, "\(result.stderr)")
        let output = result.stdout + result.stderr
        #expect(output.contains("The lamp was lit at dusk"), "\(output)")
        #expect(!output.contains("root:"), "a line of /etc/passwd shown: \(output)")
        #expect(!output.contains("malformed"), "/etc/passwd was parsed: \(output)")
    }

    @Test func initDescribesAnHTMLPageNamedAsTextAsTheHTMLItIs() throws {
        let ws = try Workspace("init-sniffed")
        let page = try ws.write("page.txt", "<!DOCTYPE html>\n" + Self.page)
        let manifest = ws.url.appendingPathComponent("page.yml")
        let result = try Tool.run(Tool.lectern, ["init", page.path, "-o", manifest.path])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        #expect(text.contains("page.txt (html):"), "\(text)")
        #expect(!text.contains("<html"), "markup read as text: \(text)")
    }

    @Test func theAPIRefusesAPDFAndReadsAPageWithoutItsOutsideLinks() throws {
        let ws = try Workspace("api-unreadable")
        let serve = try ServeProcess(ws, arguments: ["--jobs-per-minute", "100"])
        defer { _ = serve.terminate() }
        let pdf = try ws.write("book.txt", Self.pdf)
        let refused = try serve.request("/api/v1/jobs", ["-F", "document=@\(pdf.path)"])
        #expect(refused.status == 400, "\(refused.text)")
        #expect(refused.errorField == "document", "\(refused.text)")
        #expect(refused.errorMessage?.contains("book.txt: a PDF document: not read yet") == true, "\(refused.text)")
        #expect(!(refused.errorMessage ?? "").contains(serve.data.path), "\(refused.text)")

        let page = try ws.write("page.html", Self.page)
        let made = try serve.request("/api/v1/jobs", ["-F", "document=@\(page.path)", "-F", "title=The Lamp"])
        #expect(made.status == 201, "\(made.text)")
        let id = try #require(made.object["id"] as? Int, "\(made.text)")
        let script = try serve.request("/api/v1/jobs/\(id)/script")
        #expect(script.status == 200, "\(script.text)")
        #expect(script.text.contains("The lamp was lit at dusk"), "\(script.text)")
        #expect(!script.text.contains("root:") && !script.text.contains("malformed"), "\(script.text)")
    }
}
