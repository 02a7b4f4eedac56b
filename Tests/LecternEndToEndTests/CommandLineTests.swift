import Foundation
import Testing

/// The command line as a user meets it: `--version`; progress only on a terminal (or asked for),
/// never wider than the terminal; `run --json`; `status` listing every output; libxml2 silent
/// beside Lectern's one error line; one store for a job whatever folder it is run from.
struct CommandLineTests {
    private func job(_ ws: Workspace, timings: String = "[json, vtt, srt, html]") throws -> URL {
        try ws.write("book/story.txt", """
            The first chapter begins here, and it goes on for a while so that there is something to hear.

            A second paragraph follows the first one, and then the story ends.
            """)
        return try ws.write("book/story.yml", """
            title: Story
            output: out
            sources: [story.txt]
            voice: { name: en-gb, rate: 1.0 }
            timings: \(timings)
            """)
    }

    @Test func versionIsPrinted() throws {
        let result = try Tool.run(Tool.lectern, ["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.range(of: #"^lectern \d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil, "\(result.stdout)")
    }

    @Test func progressOnlyOnATerminalOrWhenAsked() throws {
        let ws = try Workspace("cli-progress")
        let manifest = try job(ws)
        let plain = try Tool.lectern(["run", manifest.path], db: ws.db)
        try #require(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stderr.isEmpty, "progress written to a stderr that is not a terminal: \(plain.stderr)")
        #expect(plain.stdout.contains("wrote ") && !plain.stdout.contains("% "), "\(plain.stdout)")
        let asked = try Tool.lectern(["run", "--force", "--progress", manifest.path], db: ws.db)
        #expect(asked.stderr.contains("100%  "), "--progress printed no line: \(asked.stderr)")
        let cached = try Tool.lectern(["run", "--progress", manifest.path, "--json"], db: ws.db)
        #expect(!cached.stderr.contains("0× real time"), "\(cached.stderr)")
    }

    /// A 40-column terminal (util-linux `script` gives the run a pseudo-terminal): every redraw of
    /// the bar fits in 39 columns, so none wraps into a stale line.
    @Test func theBarFitsANarrowTerminal() throws {
        let ws = try Workspace("cli-narrow")
        let manifest = try job(ws)
        let command = "stty cols 40; exec '\(Tool.lectern)' run --force --db '\(ws.db.path)' '\(manifest.path)'"
        let result = try Tool.run("/usr/bin/script", ["-qfec", command, "/dev/null"])
        try #require(result.status == 0, "\(result.stdout)")
        let withoutEscapes = result.stdout.replacingOccurrences(of: "\u{1B}[K", with: "")
        let redraws = withoutEscapes.components(separatedBy: CharacterSet(charactersIn: "\r\n")).filter { $0.contains("words") }
        #expect(!redraws.isEmpty, "no progress on the terminal: \(result.stdout)")
        for line in redraws where line.contains("%") {
            #expect(line.count <= 39, "a bar line of \(line.count) columns on a 40-column terminal: \(line)")
        }
    }

    @Test func runJSONAndStatusListEveryOutput() throws {
        let ws = try Workspace("cli-json")
        let manifest = try job(ws, timings: "[json, vtt, srt, html, epub]")
        let run = try Tool.lectern(["run", "--json", manifest.path], db: ws.db)
        try #require(run.status == 0, "\(run.stderr)")
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], "\(run.stdout)")
        let report = try #require(reports.first)
        #expect(report["state"] as? String == "succeeded")
        let check = try Tool.run(Tool.lectern, ["check", "--json", manifest.path])
        let planned = (try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])?["words"] as? Int
        #expect(planned != nil && report["words"] as? Int == planned)
        #expect((report["chunksRendered"] as? Int ?? 0) >= 1)
        let outputs = Set(report["outputs"] as? [String] ?? [])
        let expected = Set(["mp3", "timings.json", "vtt", "srt", "html", "epub"].map { ws.url.appendingPathComponent("book/out/story.\($0)").standardizedFileURL.path })
        #expect(outputs == expected)
        for path in expected { #expect(FileManager.default.fileExists(atPath: path), "\(path) missing") }

        let status = try Tool.lectern(["status", "story"], db: ws.db)
        for path in expected { #expect(status.stdout.contains(path), "status does not list \(path): \(status.stdout)") }
        let again = try Tool.lectern(["run", "--json", manifest.path], db: ws.db)
        let second = try #require((try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(second["upToDate"] as? Bool == true && second["chunksRendered"] as? Int == 0)
    }

    @Test func malformedXHTMLGivesOneErrorLineAndNothingFromLibxml2() throws {
        let ws = try Workspace("cli-xhtml")
        try ws.write("page.xhtml", "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p>Hello <b>world</p></body></html>\n")
        var bytes = Data("<html><head><meta charset=\"shift_jis\"></head><body><p>Before ".utf8)
        bytes.append(contentsOf: [0x81, 0xFF, 0xFE])
        bytes.append(Data(" after the bad bytes.</p></body></html>\n".utf8))
        try bytes.write(to: ws.url.appendingPathComponent("declared.html"))
        for source in ["page.xhtml", "declared.html"] {
            let manifest = try ws.write("m.yml", "title: T\noutput: out\nsources: [\(source)]\n")
            for command in ["check", "run"] {
                let result = command == "run" ? try Tool.lectern([command, manifest.path], db: ws.db) : try Tool.run(Tool.lectern, [command, manifest.path])
                #expect(result.status != 0, "\(source): \(command) succeeded")
                let lines = result.stderr.split(separator: "\n")
                #expect(lines.count == 1 && lines[0].hasPrefix("lectern: error: ") && lines[0].contains(source),
                        "\(source), \(command): \(result.stderr)")
            }
        }
    }

    /// No `--db`: a job's store is found from its manifest, so running it from another folder
    /// reuses everything; a `.lectern/` folder above the manifest is that store's home.
    @Test func oneStoreForAJobWhateverTheCurrentFolder() throws {
        let ws = try Workspace("cli-store")
        let manifest = try job(ws, timings: "[json]")
        let home = ws.url.appendingPathComponent("home")
        let environment = ["HOME": home.path, "XDG_STATE_HOME": "", "LECTERN_DB": ""]
        func run(from folder: URL) throws -> [String: Any] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let result = try Tool.run(Tool.lectern, ["run", "--json", manifest.path], environment: environment, in: folder)
            try #require(result.status == 0, "\(result.stderr)")
            return try #require((try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)
        }
        let first = try run(from: ws.url.appendingPathComponent("a"))
        #expect((first["chunksRendered"] as? Int ?? 0) >= 1)
        #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent(".local/state/lectern/lectern.sqlite").path))
        let second = try run(from: ws.url.appendingPathComponent("b/c"))
        #expect(second["upToDate"] as? Bool == true && second["chunksRendered"] as? Int == 0, "rendered again from another folder: \(second)")

        try FileManager.default.createDirectory(at: ws.url.appendingPathComponent(".lectern"), withIntermediateDirectories: true)
        let third = try run(from: ws.url.appendingPathComponent("a"))
        #expect(third["chunksRendered"] as? Int ?? 0 >= 1, "a new store, a new cache")
        #expect(FileManager.default.fileExists(atPath: ws.url.appendingPathComponent(".lectern/lectern.sqlite").path))
        let status = try Tool.run(Tool.lectern, ["status", "story"], environment: environment, in: ws.url.appendingPathComponent("book"))
        #expect(status.status == 0 && status.stdout.contains("succeeded"), "status from the book's folder: \(status.stdout) \(status.stderr)")
    }

    /// docs/lectern.1 (`make man`, generated from the ArgumentParser definitions) is current: it
    /// has every subcommand `lectern --help` lists and every option of each.
    @Test func theManPageHasEveryCommandAndOption() throws {
        let page = try String(contentsOf: Tool.packageRoot.appendingPathComponent("docs/lectern.1"), encoding: .utf8)
        let help = try Tool.run(Tool.lectern, ["--help"]).stdout
        let commands = help.components(separatedBy: "SUBCOMMANDS:").last?.split(separator: "\n")
            .compactMap { line -> String? in
                let words = line.split(separator: " ")
                return line.hasPrefix("  ") && !line.hasPrefix("   ") ? words.first.map(String.init) : nil
            }.filter { $0 != "See" } ?? []
        #expect(commands.count >= 8, "\(help)")
        for command in commands {
            #expect(page.contains(".It Em \(command)\n"), "the man page lacks `\(command)`: run make man")
            let options = try Tool.run(Tool.lectern, ["help", command]).stdout
                .matches(of: /(?m)^\s+(?:-\w, )?--([a-z][a-z0-9-]*)/).map { String($0.1) }
            for option in options {
                #expect(page.contains("Fl -\(option)") || page.contains(", -\(option)"), "the man page lacks `\(command) --\(option)`: run make man")
            }
        }
    }
}
