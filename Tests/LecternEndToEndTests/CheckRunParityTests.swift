import Foundation
import Testing

/// What `run` refuses, `check` refuses first, with the same message: no words to narrate, an
/// output folder that is a file, cannot be made or cannot be written, an output name taken by a
/// folder. System errors read `cannot <action> <path>: <reason>` and never Foundation's
/// `NSCocoaErrorDomain` text, on every error path the CLI can reach here.
struct CheckRunParityTests {
    /// The error line of a failed command, after `lectern: error: `.
    private func errorLine(_ output: Tool.Output, _ command: String) throws -> String {
        #expect(output.status != 0, "\(command) should fail: \(output.stdout)")
        let line = try #require(output.stderr.split(separator: "\n").first { $0.hasPrefix("lectern: error: ") },
                                "\(command) printed no error: \(output.stderr)")
        return String(line.dropFirst("lectern: error: ".count))
    }

    /// Runs `check` then `run` (through `wrapper`, a command that execs its arguments, when given)
    /// and requires both to fail with one and the same message, which is returned.
    @discardableResult
    private func bothFail(_ ws: Workspace, _ manifest: URL, wrapper: [String] = [], mentions: [String]) throws -> String {
        let call = { (args: [String]) throws -> Tool.Output in
            wrapper.isEmpty ? try Tool.run(Tool.lectern, args) : try Tool.run(wrapper[0], Array(wrapper.dropFirst()) + [Tool.lectern] + args)
        }
        let check = try errorLine(try call(["check", manifest.path]), "check")
        let run = try errorLine(try call(["run", "--quiet", manifest.path, "--db", ws.db.path]), "run")
        #expect(check == run, "check and run disagree:\n  check: \(check)\n  run:   \(run)")
        for needle in mentions { #expect(check.contains(needle), "\"\(needle)\" missing from: \(check)") }
        Self.expectNoFoundationText(check)
        let status = try Tool.lectern(["status", "--json"], db: ws.db)
        Self.expectNoFoundationText(status.stdout + status.stderr)
        return check
    }

    static func expectNoFoundationText(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for raw in ["NSCocoaErrorDomain", "Error Domain=", "NSPOSIXErrorDomain", "UserInfo={"] {
            #expect(!text.contains(raw), "Foundation's raw error text in: \(text)", sourceLocation: sourceLocation)
        }
    }

    private func manifest(_ ws: Workspace, output: String, source: String = "story.txt") throws -> URL {
        try ws.write("story.txt", "Once upon a time there was a story.\n\nThe end.\n")
        return try ws.write("job.yml", "title: Story\noutput: \(output)\nsources: [\(source)]\n")
    }

    @Test(arguments: [("empty", ""), ("whitespace", "  \n\n\t \n"), ("punctuation", "... !!! ???\n\n-- ;; --\n"),
                      ("emoji", "😀 🎉 😀\n\n🙂\n")])
    func noWordsFailsCheckAsRun(_ name: String, _ text: String) throws {
        let ws = try Workspace("parity-\(name)")
        try ws.write("nothing.txt", text)
        let file = try manifest(ws, output: "out", source: "nothing.txt")
        try bothFail(ws, file, mentions: ["job.yml", "no words to narrate"])
        #expect(!ws.exists("out/job.mp3"))
    }

    @Test func outputFolderThatIsAFile() throws {
        let ws = try Workspace("parity-file")
        try ws.write("taken", "a file, not a folder\n")
        try bothFail(ws, try manifest(ws, output: "taken"), mentions: ["cannot create the output folder", "taken", "is a file, not a folder"])
        try bothFail(ws, try manifest(ws, output: "taken/inside"), mentions: ["cannot create the output folder", "taken/inside"])
        #expect(try String(contentsOf: ws.url.appendingPathComponent("taken"), encoding: .utf8) == "a file, not a folder\n")
    }

    @Test func outputNameTakenByAFolder() throws {
        let ws = try Workspace("parity-folder")
        try FileManager.default.createDirectory(at: ws.url.appendingPathComponent("out/job.mp3"), withIntermediateDirectories: true)
        try bothFail(ws, try manifest(ws, output: "out"), mentions: ["cannot write", "out/job.mp3", "a folder has that name"])
    }

    /// A read-only file system (a tmpfs mounted read-only in a user and mount namespace of its own).
    @Test func readOnlyOutputFolder() throws {
        let ws = try Workspace("parity-readonly")
        let mount = ws.url.appendingPathComponent("mounted")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        let wrapper = ["/usr/bin/unshare", "-rm", "sh", "-c", "mount -t tmpfs -o ro tmpfs \"$0\" && exec \"$@\"", mount.path]
        let probe = try Tool.run(wrapper[0], Array(wrapper.dropFirst()) + ["/bin/true"])
        guard probe.status == 0 else {
            print("skipped: this machine does not allow a user namespace with a tmpfs mount (\(probe.stderr))")
            return
        }
        try bothFail(ws, try manifest(ws, output: "mounted/book"), wrapper: wrapper,
                     mentions: ["cannot create the output folder", "mounted/book", "Read-only file system"])
    }

    /// A folder the user may not write: mode 555, and (when the tests run as root, who may write
    /// anywhere) the command run as an unprivileged user of a user namespace of its own.
    @Test func unwritableOutputFolder() throws {
        let ws = try Workspace("parity-unwritable")
        let locked = ws.url.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked.path) }
        var wrapper: [String] = []
        if geteuid() == 0 {
            wrapper = ["/usr/bin/unshare", "-U", "--map-user=1000", "--map-group=1000"]
            guard try Tool.run(wrapper[0], Array(wrapper.dropFirst()) + ["/bin/true"]).status == 0 else {
                print("skipped: running as root, and this machine allows no user namespace to run as another user")
                return
            }
        }
        try bothFail(ws, try manifest(ws, output: "locked"), wrapper: wrapper,
                     mentions: ["cannot write in the output folder", "locked", "Permission denied"])
        try bothFail(ws, try manifest(ws, output: "locked/inner"), wrapper: wrapper,
                     mentions: ["cannot create the output folder", "locked/inner", "Permission denied"])
    }

    /// Every other system error the CLI can be led into here: one line, the path, the reason,
    /// no Foundation text.
    @Test func systemErrorsNameWhatAndWhere() throws {
        let ws = try Workspace("parity-system")
        let good = try manifest(ws, output: "out")
        try ws.write("notadb", "plain text, not SQLite\n")
        try FileManager.default.createDirectory(at: ws.url.appendingPathComponent("adir.sqlite"), withIntermediateDirectories: true)
        try ws.write("cover.yml", "title: Story\noutput: out\ncover: missing.jpg\nsources: [story.txt]\n")
        let cases: [(String, [String], [String])] = [
            ("store not a database", ["run", good.path, "--db", ws.url.appendingPathComponent("notadb").path], ["notadb"]),
            ("store a folder", ["run", good.path, "--db", ws.url.appendingPathComponent("adir.sqlite").path], ["adir.sqlite"]),
            ("status of a folder", ["status", "--db", ws.url.appendingPathComponent("adir.sqlite").path], ["adir.sqlite"]),
            ("missing manifest", ["check", ws.url.appendingPathComponent("absent.yml").path], ["absent.yml"]),
            ("missing cover", ["check", ws.url.appendingPathComponent("cover.yml").path], ["missing.jpg"]),
            ("init over a folder", ["init", ws.url.appendingPathComponent("story.txt").path, "-o", ws.url.appendingPathComponent("adir.sqlite").path, "--force"], ["adir.sqlite"]),
        ]
        for (name, arguments, mentions) in cases {
            let result = try Tool.run(Tool.lectern, arguments)
            let line = try errorLine(result, name)
            #expect(result.stderr.split(separator: "\n").count == 1, "\(name): more than one line: \(result.stderr)")
            for needle in mentions { #expect(line.contains(needle), "\(name): \"\(needle)\" missing from: \(line)") }
            Self.expectNoFoundationText(result.stdout + result.stderr)
        }
    }
}
