import Foundation
import Testing
import LecternCore
import LecternTestSupport
import LecternTesting

/// No command ever writes over a file a job reads, and a script can trust the exit status:
/// the collisions a fault probe found (an EPUB narrated into itself, a page replaced by its
/// read-along page, a source named like an export, `init -o` over the document) fail `check`
/// and `run` naming both paths, with every input's bytes as they were and nothing left beside
/// them; an argument that is neither an option nor a file is a usage error (64).
struct InputProtectionTests {
    /// `check` and `run` of `manifest` both fail naming `input`, and the folder is byte for byte
    /// as it was (the store lives elsewhere).
    private func expectRefused(_ manifest: String, naming input: String, in folder: URL, extra: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try CollidingJob.snapshot(of: folder)
        let store = try Workspace("protect-store")
        let db = store.db
        for command in [["check"] + extra + [manifest], ["run", "--quiet", "--db", db.path] + extra + [manifest]] {
            let result = try Tool.run(Tool.lectern, command, in: folder)
            #expect(result.status == 1, "\(command[0]) exited \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
            #expect(result.stderr.contains(input), "\(command[0]) does not name \(input): \(result.stderr)", sourceLocation: sourceLocation)
            #expect(result.stderr.contains("no output is an input"), "\(result.stderr)", sourceLocation: sourceLocation)
            #expect(try CollidingJob.snapshot(of: folder) == before, "\(command[0]) changed the folder", sourceLocation: sourceLocation)
        }
    }

    /// Generated collisions, each kind of input in each way, through the real binary: `check`
    /// and `run` fail, and every byte of the job's folder is as it was.
    @Test func generatedCollisionsLeaveEveryByte() throws {
        var random = SeededGenerator(seed: 2026)
        let formats: [TimingFormat?] = [nil] + TimingFormat.allCases.map(Optional.some)
        var tried = 0
        for way in CollidingJob.Way.allCases {
            for input in CollidingJob.Input.allCases.shuffled(using: &random).prefix(3) {
                let format = formats.randomElement(using: &random)!
                let name = CollidingJob.names.randomElement(using: &random)!
                guard let job = try CollidingJob(input: input, way: way, format: format, name: name, collide: true) else { continue }
                defer { job.remove() }
                let before = try job.snapshot()
                let store = try Workspace("protect-store")
                for command in [["check", job.manifest.path], ["run", "--quiet", "--db", store.db.path, job.manifest.path]] {
                    let result = try Tool.run(Tool.lectern, command)
                    let what = "\(command[0]) \(input) \(way) \(format.map(\.rawValue) ?? "mp3") \(name.debugDescription)"
                    #expect(result.status == 1 && result.stderr.contains("no output is an input"), "\(what): \(result.status) \(result.stderr)")
                    #expect(try job.snapshot() == before, "\(what) changed the job's folder")
                }
                tried += 1
            }
        }
        #expect(tried >= 8, "only \(tried) collisions tried")
    }

    /// On a case-insensitive file system (Tests/Scripts/casefold_fs.py, a FUSE file system over a
    /// folder that looks names up as macOS and Windows do) `book.vtt` is the source `Book.VTT`:
    /// device and inode tell, where the paths differ.
    @Test func aCaseVariantIsTheSameFileOnACaseInsensitiveFileSystem() throws {
        guard FileManager.default.fileExists(atPath: "/dev/fuse"),
              try Tool.run("/usr/bin/python3", ["-c", "import fuse"]).status == 0 else {
            print("skipped: no /dev/fuse or no python3-fuse (make test-deps installs it)"); return
        }
        let ws = try Workspace("protect-case")
        let backing = ws.url.appendingPathComponent("backing"), mount = ws.url.appendingPathComponent("mount")
        for folder in [backing, mount] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        server.arguments = [Tool.packageRoot.appendingPathComponent("Tests/Scripts/casefold_fs.py").path, backing.path, mount.path]
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            _ = try? Tool.run("/usr/bin/umount", [mount.path])
            _ = terminateProcess(server, timeout: 5)
        }
        // Mounted once /proc/mounts lists it (or the server gave up).
        let deadline = Date().addingTimeInterval(10)
        func mounted() -> Bool { ((try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? "").contains(" \(mount.path) ") }
        while !mounted() && server.isRunning && Date() < deadline { usleep(20_000) }
        guard mounted() else { print("skipped: the case-insensitive file system did not mount here"); return }
        try Data("Once upon a time there was a source whose name differed only in case.\n".utf8).write(to: mount.appendingPathComponent("Book.VTT"))
        try Data("title: Case\noutput: .\nsources: [{ path: Book.VTT, format: text }]\ntimings: [json, vtt]\n".utf8)
            .write(to: mount.appendingPathComponent("book.yml"))
        try #require(FileManager.default.fileExists(atPath: mount.appendingPathComponent("BOOK.vtt").path), "the mount does not fold case")
        try expectRefused(mount.appendingPathComponent("book.yml").path, naming: "Book.VTT", in: mount)
    }

    @Test func aNarratedEPUBNeverReplacesItsSource() throws {
        guard Corpus.available else { print("skipped: ../shared/corpus is absent"); return }
        let ws = try Workspace("protect-epub")
        let book = ws.url.appendingPathComponent("moby.epub")
        try FileManager.default.copyItem(at: Corpus.file("epub/idpf-moby-dick.epub"), to: book)
        try ws.write("moby.yml", "output: .\nsources: [moby.epub]\ntimings: [json, epub]\n")
        try expectRefused("moby.yml", naming: book.path, in: ws.url)
    }

    @Test func aReadAlongPageNeverReplacesThePageItReads() throws {
        let ws = try Workspace("protect-html")
        let page = try ws.write("story.html", "<html><body><h1>Story</h1><p>Once upon a time there was a page.</p></body></html>")
        try ws.write("story.yml", "title: Story\noutput: .\nsources: [story.html]\n")
        try expectRefused("story.yml", naming: page.path, in: ws.url, extra: ["--readalong"])
        // Without --readalong the page is no output: check passes.
        let check = try Tool.run(Tool.lectern, ["check", "story.yml"], in: ws.url)
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test func aSourceNamedLikeAnExportIsNeverReplaced() throws {
        for name in ["book.timings.json", "book.vtt", "book.srt", "book.mp3"] {
            let ws = try Workspace("protect-named")
            let source = try ws.write(name, "Once upon a time there was a source with an unlucky name.\n")
            try ws.write("book.yml", "title: Book\noutput: .\nsources: [{ path: \(name), format: text }]\ntimings: [json, vtt, srt]\n")
            try expectRefused("book.yml", naming: source.path, in: ws.url)
        }
    }

    /// Links and `..`: the output path names the source through a symbolic link, a hard link, a
    /// linked folder, or a `..` path.
    @Test func linksAndDotDotPathsAreSeenThrough() throws {
        for way in ["symlink", "hardlink", "folder", "dotdot"] {
            let ws = try Workspace("protect-\(way)")
            let source = try ws.write("books/tale.txt", "Once upon a time there was a tale told twice.\n")
            var output = "../out"
            switch way {
            case "symlink":
                try FileManager.default.createDirectory(at: ws.url.appendingPathComponent("out"), withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(atPath: ws.url.appendingPathComponent("out/tale.vtt").path, withDestinationPath: source.path)
            case "hardlink":
                try FileManager.default.createDirectory(at: ws.url.appendingPathComponent("out"), withIntermediateDirectories: true)
                try FileManager.default.linkItem(at: source, to: ws.url.appendingPathComponent("out/tale.vtt"))
            case "folder":
                try FileManager.default.createSymbolicLink(atPath: ws.url.appendingPathComponent("out").path, withDestinationPath: ws.url.appendingPathComponent("books").path)
                try FileManager.default.moveItem(at: source, to: ws.url.appendingPathComponent("books/tale.vtt"))
            default:
                output = "../books/x/.."
                try FileManager.default.createDirectory(at: ws.url.appendingPathComponent("books/x"), withIntermediateDirectories: true)
                try FileManager.default.moveItem(at: source, to: ws.url.appendingPathComponent("books/tale.vtt"))
            }
            let path = way == "folder" || way == "dotdot" ? "tale.vtt" : "tale.txt"
            try ws.write("books/tale.yml", "title: Tale\noutput: \(output)\nsources: [{ path: \(path), format: text }]\ntimings: [json, vtt]\n")
            try expectRefused("books/tale.yml", naming: path, in: ws.url)
        }
    }

    /// `gc` clears a dead process's temporaries beside a job's outputs, never a source that only
    /// looks like one.
    @Test func gcNeverRemovesAnInputNamedLikeATemporary() throws {
        let ws = try Workspace("protect-gc")
        let name = ".tale.mp3.4194000.tmp"  // a pid no process has (above Linux's pid_max)
        let source = try ws.write(name, "Once upon a time there was a tale with a temporary's name.\n")
        let stray = try ws.write(".tale.vtt.4194001.tmp", "a dead run's leftover")
        try ws.write("tale.yml", "title: Tale\noutput: .\nsources: [{ path: '\(name)', format: text }]\ntimings: [json, vtt]\n")
        let run = try Tool.lectern(["run", "--quiet", ws.url.appendingPathComponent("tale.yml").path], db: ws.db)
        #expect(run.status == 1 && run.stderr.contains("as its leftover temporary file"), "\(run.stderr)")
        let gc = try Tool.lectern(["gc"], db: ws.db)
        #expect(gc.status == 0, "\(gc.stderr)")
        #expect(FileManager.default.fileExists(atPath: source.path), "gc removed the source: \(gc.stdout)")
        #expect(!FileManager.default.fileExists(atPath: stray.path), "gc left a dead run's temporary: \(gc.stdout)")
    }

    @Test func initNeverWritesOverADocumentItReads() throws {
        let ws = try Workspace("protect-init")
        let book = try ws.write("book.txt", "Once upon a time there was a book that was nearly lost.\n")
        let before = try Data(contentsOf: book)
        for arguments in [["-o", "book.txt", "--force"], ["-o", "./sub/../book.txt", "--force"]] {
            try FileManager.default.createDirectory(at: ws.url.appendingPathComponent("sub"), withIntermediateDirectories: true)
            let result = try Tool.run(Tool.lectern, ["init", "book.txt"] + arguments, in: ws.url)
            #expect(result.status != 0, "\(arguments): \(result.stdout)")
            #expect(result.stderr.contains("never writes over a file it reads"), "\(result.stderr)")
            #expect(try Data(contentsOf: book) == before)
        }
        try FileManager.default.createSymbolicLink(atPath: ws.url.appendingPathComponent("link.yml").path, withDestinationPath: book.path)
        let linked = try Tool.run(Tool.lectern, ["init", "book.txt", "-o", "link.yml", "--force"], in: ws.url)
        #expect(linked.status != 0 && linked.stderr.contains("book.txt"), "\(linked.stderr)")
        #expect(try Data(contentsOf: book) == before)
        let fine = try Tool.run(Tool.lectern, ["init", "book.txt", "-o", "book.yml"], in: ws.url)
        #expect(fine.status == 0, "\(fine.stderr)")
    }

    @Test func anArgumentThatIsNeitherOptionNorFileIsAUsageError() throws {
        let ws = try Workspace("protect-args")
        try ws.write("-dash.txt", "Once upon a time there was a file whose name began with a dash.\n")
        let db = ws.url.appendingPathComponent("s.sqlite").path
        let dashed = try Tool.run(Tool.lectern, ["run", "-dash.txt", "--db", db], in: ws.url)
        #expect(dashed.status == 64, "\(dashed.status): \(dashed.stdout)\(dashed.stderr)")
        #expect(dashed.stderr.contains("./-dash.txt") && !dashed.stdout.contains("USAGE"), "\(dashed.stderr)")
        let unknown = try Tool.run(Tool.lectern, ["check", "-nothing-here"], in: ws.url)
        #expect(unknown.status == 64 && unknown.stderr.contains("unknown option '-nothing-here'"), "\(unknown.stderr)")
        let missing = try Tool.run(Tool.lectern, ["run", "--db", db, "missing.txt"], in: ws.url)
        #expect(missing.status == 64 && missing.stderr.contains("no such manifest or document: 'missing.txt'"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: ws.url.appendingPathComponent("out").path))
        for arguments in [["check", "./-dash.txt"], ["check", "--", "-dash.txt"]] {
            let result = try Tool.run(Tool.lectern, arguments, in: ws.url)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(result.stdout.contains("words"), "\(result.stdout)")
        }
    }

    /// A name with a newline, spaces, quotes and non-ASCII letters is read; a missing one is named
    /// as written, its newline escaped, on one line.
    @Test func namesAreReadAndShownAsWritten() throws {
        let ws = try Workspace("protect-names")
        let name = "a\nb 'c' \"d\" été.txt"
        try ws.write(name, "Once upon a time there was a file with a strange name.\n")
        let check = try Tool.run(Tool.lectern, ["check", name], in: ws.url)
        #expect(check.status == 0, "\(check.stderr)")
        let db = ws.url.appendingPathComponent("s.sqlite").path
        let run = try Tool.run(Tool.lectern, ["run", "--quiet", "--db", db, name], in: ws.url)
        #expect(run.status == 0, "\(run.stderr)")
        let stem = "a\nb 'c' \"d\" été"
        #expect(FileManager.default.fileExists(atPath: ws.url.appendingPathComponent("out/\(stem)/\(stem).mp3").path))
        let missing = try Tool.run(Tool.lectern, ["check", "x\ny.txt"], in: ws.url)
        #expect(missing.status == 64, "\(missing.stderr)")
        #expect(missing.stderr.contains("'x\\ny.txt'") && missing.stderr.split(separator: "\n").count == 1, "\(missing.stderr)")
    }
}
