import Foundation
import Testing
import LecternStore
import LecternTestSupport

/// A SQLite store on a read-only file system says so (#22), whether the file exists or would be
/// new. The folder is bind-mounted read-only in a mount namespace of the `lectern` process alone
/// (`unshare -m`): as root, permissions (chmod) would not stop a write.
struct ReadOnlyStoreTests {
    /// Runs `lectern ARGS` with `folder` read-only.
    static func lecternWithReadOnly(_ folder: URL, _ arguments: [String], in directory: URL) throws -> Tool.Output {
        try Tool.run("/usr/bin/unshare", ["-m", "--propagation", "private", "/bin/sh", "-c",
                                          "mount --bind -o ro \"$1\" \"$1\" && shift && exec \"$@\"", "sh", folder.path, Tool.lectern]
                     + arguments, in: directory)
    }

    @Test func aStoreOnAReadOnlyFileSystemNamesTheFileAndTheReason() throws {
        let ws = try Workspace("read-only-store")
        let folder = ws.url.appendingPathComponent("state")
        let existing = folder.appendingPathComponent("jobs.sqlite")
        _ = try BlockingStore(url: existing)
        try ws.write("book/note.txt", "A note.\n")
        let manifest = try ws.write("book/note.yml", "title: Note\noutput: out\nsources: [note.txt]\n")
        let reason = String(cString: strerror(EROFS))
        for store in [existing, folder.appendingPathComponent("new.sqlite")] {
            let run = try Self.lecternWithReadOnly(folder, ["run", "--quiet", "--db", store.path, manifest.path], in: ws.url)
            #expect(run.status == 1)
            #expect(run.stderr.contains("cannot open the job store \(store.path) for writing: \(reason)"), "\(run.stderr)")
        }
        // Outside the namespace the store is as it was: writable, and sound.
        #expect(try BlockingStore(url: existing).integrityCheck() == "ok")
    }
}
