import Foundation
import Testing

/// Who sees what through `lectern serve`, and that nothing from a request reaches outside the
/// service's data folder: tokens see their owner's jobs only (an admin's all), only a token's
/// hash is stored, a revoked token stops working; traversal in output paths, links planted in a
/// job's folder, an EPUB whose entry is a symbolic link, file names with paths, and manifests
/// that name files on the server all stay inside; uploads are size-limited and job creation is
/// rate-limited, and a refused upload leaves no job and no file behind.
struct ServeAccessTests {
    static let book = """
        CHAPTER I.

        It was a quiet morning in the town.

        CHAPTER II.

        The baker opened his shop at seven.
        """

    static func token(_ ws: Workspace, _ name: String, owner: String, admin: Bool = false) throws -> String {
        let out = try Tool.run(Tool.lectern, ["token", "add", name, "--owner", owner, "--db", ws.db.path] + (admin ? ["--admin"] : []))
        try #require(out.status == 0, "\(out.stderr)")
        return out.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aTokenSeesOnlyItsOwnersJobsAnAdminSeesAllAndTheStoreKeepsNoSecret() throws {
        let ws = try Workspace("serve-owners")
        let server = try ServeProcess(ws, owner: "alice")
        let bob = try Self.token(ws, "bob", owner: "bob")
        let admin = try Self.token(ws, "root", owner: "root", admin: true)
        let book = try ws.write("book.txt", Self.book)
        let created = try server.createJob(["document=@\(book.path)", "title=Alice's book"])
        try #require(created.status == 201, "\(created.text)")
        let id = try #require(created.object["id"] as? Int)

        #expect((try server.request("/api/v1/jobs", token: bob).json as? [Any])?.isEmpty == true)
        for (path, method) in [("/api/v1/jobs/\(id)", "GET"), ("/api/v1/jobs/\(id)/script", "GET"), ("/api/v1/jobs/\(id)/runs", "POST"),
                               ("/api/v1/jobs/\(id)", "DELETE"), ("/api/v1/jobs/\(id)/outputs", "GET"), ("/api/v1/jobs/\(id)/events", "GET")] {
            let answer = try server.request(path, ["-X", method], token: bob)
            #expect(answer.status == 404, "bob \(method) \(path): \(answer.status) \(answer.text)")
        }
        #expect((try server.request("/api/v1/jobs", token: admin).json as? [[String: Any]])?.map { $0["id"] as? Int } == [id])
        #expect(try server.request("/api/v1/jobs/\(id)", token: admin).object["owner"] as? String == "alice")
        #expect(try server.request("/api/v1/jobs", token: "").status == 401)
        #expect(try server.request("/api/v1/jobs", token: "lct_" + String(repeating: "A", count: 43)).status == 401)

        // Only hashes in the store: no token's secret appears in its file.
        let stored = try Data(contentsOf: ws.db)
        for secret in [server.token, bob, admin] { #expect(stored.range(of: Data(secret.utf8)) == nil) }

        let revoke = try Tool.run(Tool.lectern, ["token", "revoke", "bob", "--db", ws.db.path])
        #expect(revoke.status == 0, "\(revoke.stderr)")
        _ = try eventually(timeout: 10, "the revoked token to be refused") { try server.request("/api/v1/jobs", token: bob).status == 401 }
    }

    @Test func pathsFromRequestsNeverLeaveTheDataFolder() throws {
        let ws = try Workspace("serve-paths")
        let server = try ServeProcess(ws)
        let book = try ws.write("book.txt", Self.book)
        let secret = try ws.write("secret.txt", "TOP SECRET OUTSIDE")
        // A file name with a path keeps only its last component.
        let created = try server.request("/api/v1/jobs", ["-F", "document=@\(book.path);filename=../../../book.txt"])
        try #require(created.status == 201, "\(created.text)")
        let id = try #require(created.object["id"] as? Int)
        #expect(created.object["files"] as? [String] == ["book.txt"])
        let run = try server.render(job: id)
        try #require(run["state"] as? String == "succeeded", "\(run)")

        let jobFolder = try #require(try FileManager.default.contentsOfDirectory(at: server.data.appendingPathComponent("jobs"),
                                                                                 includingPropertiesForKeys: nil).first)
        // A link planted in the output folder that leads out of it is not served.
        try FileManager.default.createSymbolicLink(at: jobFolder.appendingPathComponent("output/leak.txt"), withDestinationURL: secret)
        for path in ["/api/v1/jobs/\(id)/outputs/../input/book.txt", "/api/v1/jobs/\(id)/outputs/%2e%2e/input/book.txt",
                     "/api/v1/jobs/\(id)/outputs/%2e%2e%2f%2e%2e%2f%2e%2e%2fsecret.txt", "/api/v1/jobs/\(id)/outputs/leak.txt",
                     "/api/v1/jobs/\(id)/outputs//etc/passwd", "/api/v1/jobs/\(id)/outputs/.hidden"] {
            let answer = try server.request(path, ["--path-as-is"])
            #expect(answer.status == 404 || answer.status == 400, "\(path): \(answer.status)")
            #expect(!answer.text.contains("TOP SECRET") && !answer.text.contains("root:x:0"), "\(path) leaked")
        }
        #expect(!(try server.request("/api/v1/jobs/\(id)/outputs").text.contains("leak.txt")))

        // A manifest over HTTP may not name files on the server, nor set the output folder.
        let attempts: [(String, String)] = [
            ("sources: [\(secret.path)]\n", "manifest.sources[0]"),
            ("sources:\n  - path: ../secret.txt\n", "manifest.sources[0].path"),
            ("sources: [book.txt]\ncover: /etc/hostname\n", "manifest.cover"),
            ("sources: [book.txt]\noutput: \(ws.url.path)\n", "manifest.output"),
            ("sources: [book.txt]\nvoice: { engine: piper, model: /etc/hostname }\n", "manifest.voice.model"),
        ]
        for (text, field) in attempts {
            let manifest = try ws.write("m.yml", "title: T\n" + text)
            let answer = try server.createJob(["manifest=@\(manifest.path)", "document=@\(book.path)"])
            #expect(answer.status == 400, "\(text): \(answer.status) \(answer.text)")
            #expect(answer.errorField == field, "\(text): \(answer.text)")
            #expect(!(answer.errorMessage ?? "").contains(server.data.path), "the message shows the server's folders: \(answer.text)")
        }
        #expect((try server.request("/api/v1/jobs").json as? [Any])?.count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: server.data.appendingPathComponent("staging").path).isEmpty)
    }

    @Test func anEPUBEntryThatIsASymbolicLinkIsReadAsNothingOnTheServer() throws {
        let ws = try Workspace("serve-epub-link")
        let server = try ServeProcess(ws)
        let target = try ws.write("outside.xhtml", HostileEPUBTests.chapter("OUTSIDE THE ARCHIVE"))
        let epub = try HostileEPUBTests.epub(ws, "linked.epub", [
            ("META-INF/container.xml", HostileEPUBTests.container), ("OEBPS/content.opf", HostileEPUBTests.opf()),
        ])
        // OEBPS/ch1.xhtml as a symbolic link (Unix mode 0120777) to a file on the server.
        let add = try Tool.run("python3", ["-c", """
            import sys, zipfile
            info = zipfile.ZipInfo("OEBPS/ch1.xhtml"); info.create_system = 3; info.external_attr = 0o120777 << 16
            zipfile.ZipFile(sys.argv[1], "a").writestr(info, sys.argv[2])
            """, epub.path, target.path])
        try #require(add.status == 0, "\(add.stderr)")
        // The entry is read as nothing, so the job is refused as its run would be: never with the
        // linked file's text or the server's folders.
        let created = try server.createJob(["document=@\(epub.path)", "title=Linked"])
        #expect(created.status == 422 && created.errorField == "document", "\(created.text)")
        #expect(created.errorMessage?.contains("OEBPS/ch1.xhtml") == true, "\(created.text)")
        #expect(!created.text.contains("OUTSIDE THE ARCHIVE"))
        #expect(!created.text.contains(server.data.path))
        #expect((try server.request("/api/v1/jobs").json as? [Any])?.isEmpty == true)
    }

    @Test func uploadsAreLimitedAndJobCreationIsRateLimited() throws {
        let ws = try Workspace("serve-limits")
        let server = try ServeProcess(ws, arguments: ["--max-upload-mb", "1", "--jobs-per-minute", "2"])
        let big = ws.url.appendingPathComponent("big.txt")
        try Data(String(repeating: "All work and no play makes a dull book. ", count: 60_000).utf8).write(to: big)
        let tooBig = try server.createJob(["document=@\(big.path)"])
        #expect(tooBig.status == 413, "\(tooBig.text)")
        #expect(tooBig.errorField == "body")
        let book = try ws.write("book.txt", Self.book)
        #expect(try server.createJob(["document=@\(book.path)"]).status == 201)
        let limited = try server.createJob(["document=@\(book.path)"])
        #expect(limited.status == 429, "\(limited.text)")
        #expect(Int(limited.headers["retry-after"] ?? "") ?? 0 > 0)
        #expect((try server.request("/api/v1/jobs").json as? [Any])?.count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: server.data.appendingPathComponent("staging").path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: server.data.appendingPathComponent("jobs").path).count == 1)
    }
}
