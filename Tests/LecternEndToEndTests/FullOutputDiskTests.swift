import Foundation
import Testing

/// A full disk while the M4B and Opus files are written (issue #38, item 10): the run fails saying
/// that the output could not be written and why — not that a chunk could not be read from the
/// cache — and leaves no half-written file in the output folder.
@Suite(.serialized) struct FullOutputDiskTests {
    @Test(arguments: ["m4b", "opus"])
    func aFullOutputDiskIsReportedAsTheOutputsWriteFailing(format: String) throws {
        let ws = try Workspace("full-output-\(format)")
        let out = ws.url.appendingPathComponent("out")
        let disk = try TmpfsMount(at: out, kilobytes: 64)
        defer { disk.unmount() }
        #expect(disk.fill() == String(cString: strerror(ENOSPC)))
        let paragraph = "The tide came in over the flats while the gulls argued about the last of the light. "
        try ws.write("note.txt", (1...6).map { "Part \($0). " + String(repeating: paragraph, count: 3) }.joined(separator: "\n\n"))
        let manifest = try ws.write("note.yml", "title: Note\noutput: out\nformats: [\(format)]\ntimings: []\nsources: [note.txt]\n")
        let run = try Tool.lectern(["run", "--quiet", manifest.path], db: ws.db)
        #expect(run.status != 0)
        #expect(run.stderr.contains("No space left on device"), "\(run.stderr)")
        #expect(!run.stderr.contains("cannot read the chunk PCM"), "\(run.stderr)")
        let left = try FileManager.default.subpathsOfDirectory(atPath: out.path).filter { path in
            var isFolder: ObjCBool = false
            return path != "filler" && FileManager.default.fileExists(atPath: out.appendingPathComponent(path).path, isDirectory: &isFolder) && !isFolder.boolValue
        }
        #expect(left.isEmpty, "a half-written output was left: \(left)")
    }
}
