import Foundation
import Testing
import LecternTestSupport

/// What `lectern status` lists: two jobs of the same name (two checkouts of one project sharing
/// a store) are told apart by their manifests' paths, and a job whose folder was deleted says so.
struct StatusListingTests {
    private static let book = """
        CHAPTER I. One

        A short first chapter, read aloud.
        """

    @Test func jobsOfOneNameAreNamedByTheirManifestsAndAGoneManifestIsSaid() throws {
        let ws = try Workspace("status-names")
        let first = try ws.write("first/demo.yml", "title: Book\nsources: [book.txt]\n")
        try ws.write("first/book.txt", Self.book)
        let second = try ws.write("second/demo.yml", "title: Book\nsources: [book.txt]\n")
        try ws.write("second/book.txt", Self.book)
        let alone = try ws.write("other/alone.yml", "title: Book\nsources: [book.txt]\n")
        try ws.write("other/book.txt", Self.book)
        for manifest in [first, second, alone] {
            let run = try Tool.lectern(["run", "--quiet", manifest.path], db: ws.db)
            try #require(run.status == 0, "\(run.stderr)")
        }

        let listed = try Tool.run(Tool.lectern, ["status", "--db", ws.db.path, "demo"], in: ws.url)
        try #require(listed.status == 0, "\(listed.stderr)")
        let heads = listed.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map(String.init)
        #expect(heads.count == 2, "\(listed.stdout)")
        #expect(heads.contains { $0.hasPrefix("first/demo.yml") } && heads.contains { $0.hasPrefix("second/demo.yml") },
                "jobs of one name are not told apart by path: \(heads)")

        let json = try Tool.run(Tool.lectern, ["status", "--db", ws.db.path, "--json"], in: ws.url)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let jobs = report["jobs"] as? [[String: Any]] ?? []
        let labels = Set(jobs.compactMap { $0["label"] as? String })
        #expect(labels == ["first/demo.yml", "second/demo.yml", "alone"], "\(labels)")

        try FileManager.default.removeItem(at: ws.url.appendingPathComponent("second"))
        let after = try Tool.run(Tool.lectern, ["status", "--db", ws.db.path], in: ws.url)
        #expect(after.stdout.contains("manifest no longer exists: \(second.standardizedFileURL.path)"), "\(after.stdout)")
        #expect(!after.stdout.contains("manifest no longer exists: \(first.standardizedFileURL.path)"))
        let gone = try JSONSerialization.jsonObject(with: Data(try Tool.run(Tool.lectern, ["status", "--db", ws.db.path, "--json"], in: ws.url).stdout.utf8))
        let exists = ((gone as? [String: Any])?["jobs"] as? [[String: Any]] ?? []).map { ($0["label"] as? String ?? "", $0["manifestExists"] as? Bool) }
        #expect(exists.contains { $0.0 == "second/demo.yml" && $0.1 == false } && exists.contains { $0.0 == "alone" && $0.1 == true }, "\(exists)")
    }
}
