import Foundation
import Testing
import LecternTesting

/// A plain-text book in parts, read with no configuration: its preface outside any part, then
/// two books holding three and two chapters. Every output keeps the hierarchy — `check --json`,
/// the ID3 tables of contents (mutagen), ffprobe's chapters, the sidecar's `parts`, the WebVTT
/// notes, the narrated EPUB's nav (epubcheck) — and a part title edited alone renders no chunk.
struct PartsEndToEndTests {
    static func text(secondPart: String = "BOOK II. THE RETURN") -> String {
        var s = "PREFACE\n\nA word before the story begins, from the editor.\n\n"
        s += "BOOK I. THE ARRIVAL\n\n"
        for (n, title) in [("I", "The Gate"), ("II", "The Hall"), ("III", "The Tower")] {
            s += "CHAPTER \(n).\n\n\(title)\n\nThey walked on through the night, talking of \(title.lowercased()) and other things.\n\n"
            s += "Morning came, and with it the long road home.\n\n"
        }
        s += "\(secondPart)\n\n"
        for (n, title) in [("I", "The Road"), ("II", "Home")] {
            s += "CHAPTER \(n).\n\n\(title)\n\nThey walked on through the day, talking of \(title.lowercased()) and other things.\n\n"
            s += "Evening came, and with it rest.\n\n"
        }
        return s
    }

    @Test func aBookInPartsKeepsItsHierarchyInEveryOutput() throws {
        let ws = try Workspace("parts")
        try ws.write("saga.txt", Self.text())
        let manifest = try ws.write("saga.yml", """
            title: Saga
            sources: [saga.txt]
            voice: { name: en-gb, wpm: 300 }
            timings: [json, vtt, epub]
            """)
        let check = try Tool.run(Tool.lectern, ["check", "--json", manifest.path])
        try #require(check.status == 0, "\(check.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any] ?? [:]
        let chapters = report["chapters"] as? [[String: Any]] ?? []
        #expect(chapters.map { $0["part"] as? String } == [nil] + Array(repeating: "BOOK I. THE ARRIVAL", count: 3)
                + Array(repeating: "BOOK II. THE RETURN", count: 2))
        #expect(chapters.first?["title"] as? String == "PREFACE")

        let run = try Tool.lectern(["run", "--quiet", manifest.path], db: ws.db)
        try #require(run.status == 0, "\(run.stderr)")
        let out = ws.url.appendingPathComponent("out/saga")
        let mp3 = out.appendingPathComponent("saga.mp3")
        let sidecar = try Sidecar.load(out.appendingPathComponent("saga.timings.json"))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("saga.timings.json"))) as? [String: Any] ?? [:]
        let titles = chapters.compactMap { $0["title"] as? String }
        #expect(sidecar.chapters.map(\.title) == titles)
        #expect(try BookChecks.chapterTitles(mp3) == titles)

        // The sidecar's parts: titles, chapter numbers, and times spanning their chapters.
        let parts = json["parts"] as? [[String: Any]] ?? []
        #expect(parts.compactMap { $0["title"] as? String } == ["BOOK I. THE ARRIVAL", "BOOK II. THE RETURN"])
        #expect(parts.map { $0["chapters"] as? [Int] ?? [] } == [[2, 3, 4], [5, 6]])
        for part in parts {
            let numbers = part["chapters"] as? [Int] ?? []
            #expect(part["start"] as? Int == sidecar.chapters.first { $0.number == numbers.first }?.start)
            #expect(part["end"] as? Int == sidecar.chapters.first { $0.number == numbers.last }?.end)
        }
        // The part heading is spoken at the start of its first chapter, before the chapter's own heading.
        let second = sidecar.chapters[1].paragraphs.prefix(2).map(\.text)
        #expect(second == ["BOOK I.", "THE ARRIVAL"] || second == ["BOOK I. THE ARRIVAL", "CHAPTER I."], "\(second)")

        // mutagen: the top-level table lists the preface and a table per part, each with its title and chapters.
        let script = """
            import sys
            from mutagen.id3 import ID3
            tag = ID3(sys.argv[1])
            for toc in tag.getall("CTOC"):
                title = toc.sub_frames.get("TIT2")
                print(toc.element_id, int(toc.flags), ",".join(toc.child_element_ids), title.text[0] if title else "")
            """
        let tocs = try Tool.run("/usr/bin/python3", ["-c", script, mp3.path])
        try #require(tocs.status == 0, "\(tocs.stderr)")
        let lines = tocs.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(lines)")
        let top = try #require(lines.first { $0.hasPrefix("toc ") })
        #expect(top.split(separator: " ").dropFirst(2).first == "chp1,part1,part2", "\(top)")
        #expect(lines.contains { $0.hasPrefix("part1 ") && $0.contains("chp2,chp3,chp4") && $0.hasSuffix("BOOK I. THE ARRIVAL") })
        #expect(lines.contains { $0.hasPrefix("part2 ") && $0.contains("chp5,chp6") && $0.hasSuffix("BOOK II. THE RETURN") })
        let mp3val = try Tool.run("mp3val", [mp3.path])
        #expect(!mp3val.stdout.contains("WARNING") && !mp3val.stdout.contains("ERROR"), "\(mp3val.stdout)")

        let vtt = try String(contentsOf: out.appendingPathComponent("saga.vtt"), encoding: .utf8)
        #expect(vtt.contains("NOTE BOOK II. THE RETURN, Chapter 6:"), "\(vtt.prefix(400))")
        let epubcheck = try EPUBInspection.epubcheck(out.appendingPathComponent("saga.epub"))
        NarratedEPUBTests.expectValid(epubcheck)

        // Only a part's title edited: the outputs are written again; of the audio, only the chunk that
        // speaks the part's heading (its first chapter's) is rendered.
        try ws.write("saga.txt", Self.text(secondPart: "BOOK II. THE LONG RETURN"))
        let again = try Tool.lectern(["run", "--workers", "1", manifest.path], db: ws.db)
        try #require(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("wrote "), "\(again.stdout)")
        let counts = try #require(again.stdout.firstMatch(of: /(\d+) of (\d+) chunks rendered/), "\(again.stdout)")
        #expect(Int(counts.1) == 1 && Int(counts.2)! > 1, "\(again.stdout)")
        let retitled = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("saga.timings.json"))) as? [String: Any] ?? [:]
        #expect((retitled["parts"] as? [[String: Any]])?.last?["title"] as? String == "BOOK II. THE LONG RETURN")
    }
}
