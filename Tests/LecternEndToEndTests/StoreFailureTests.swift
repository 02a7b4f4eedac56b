import Foundation
import Testing
import LecternStore

/// Failures that must reach the store: a run whose store's disk fills up is recorded failed
/// with the disk's message (at once, or by the next run when even that write fails), and `gc`
/// removes the temporary outputs of processes that died.
@Suite(.serialized)
struct StoreFailureTests {
    /// Whether this machine lets a user mount a tmpfs in a user namespace (`unshare -rm`).
    static let fullDiskAvailable: Bool = {
        let probe = try? Tool.run("unshare", ["-rm", "sh", "-c", "d=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs \"$d\" && umount \"$d\"; s=$?; rmdir \"$d\"; exit $s"])
        return probe?.status == 0
    }()

    /// Runs a job with its store on a tmpfs of `size`, inside a user and mount namespace: the run,
    /// `status --json`, then (with `grow`) the tmpfs enlarged, the job run again and `status` again.
    /// Returns the runs' stderr and the last status's jobs.
    static func runOnFullDisk(_ ws: Workspace, size: String, grow: Bool) throws -> (stderr: String, jobs: [[String: Any]], notes: String) {
        let store = ws.url.appendingPathComponent("store")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        let manifest = ws.url.appendingPathComponent("book.yml").path
        let db = store.appendingPathComponent("lectern.sqlite").path
        let status = ws.url.appendingPathComponent("status.json").path
        let notes = ws.url.appendingPathComponent("notes.txt").path
        let script = """
            mount -t tmpfs -o size=\(size) tmpfs "$STORE" || exit 97
            "$LECTERN" run --quiet --db "$DB" "$MANIFEST"; echo "run exit $?" >&2
            if [ "$GROW" = yes ]; then
                mount -o remount,size=64m "$STORE" || exit 98
                "$LECTERN" run --quiet --db "$DB" "$MANIFEST"; echo "run exit $?" >&2
            fi
            "$LECTERN" status --json --db "$DB" > "$STATUS"
            ls -A "$DB-notes" > "$NOTES" 2>/dev/null
            exit 0
            """
        let result = try Tool.run("unshare", ["-rm", "sh", "-c", script], environment: [
            "STORE": store.path, "LECTERN": Tool.lectern, "DB": db, "MANIFEST": manifest, "GROW": grow ? "yes" : "no",
            "STATUS": status, "NOTES": notes,
        ])
        try #require(result.status == 0, "the namespace script failed (\(result.status)): \(result.stderr)")
        let decoded = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: status))) as? [String: Any]
        return (result.stderr, decoded?["jobs"] as? [[String: Any]] ?? [], (try? String(contentsOfFile: notes, encoding: .utf8)) ?? "")
    }

    @Test(.enabled(if: fullDiskAvailable, "unshare -rm or mounting a tmpfs is refused here"),
          arguments: [("1m", false), ("384k", false), ("384k", true)])
    func aRunWhoseStoreDiskFillsIsRecordedFailedWithTheDisksMessage(_ size: String, _ grow: Bool) throws {
        let ws = try Workspace("full-store")
        try ws.write("src/book.txt", DaemonRecoveryTests.book(chapters: 3))
        try ws.write("book.yml", """
            title: book
            output: out/book
            sources:
              - path: src/book.txt
                chapters: { heading: '^Chapter \\d+$' }
            voice: { name: en-us, wpm: 400 }
            """)
        let (stderr, jobs, notes) = try Self.runOnFullDisk(ws, size: size, grow: grow)
        #expect(stderr.contains("run exit 1"), "\(stderr)")
        #expect(!stderr.contains("NSCocoaErrorDomain"), "\(stderr)")
        let runs = try #require(jobs.first?["runs"] as? [[String: Any]], "no job recorded: \(stderr)")
        // The first run (oldest, last in the list) failed with what the disk said.
        let first = try #require(runs.last)
        let error = first["error"] as? String ?? ""
        #expect(first["state"] as? String == "failed", "\(first)")
        #expect(error.contains("No space left on device") || error.contains("disk is full"), "\(error)")
        #expect(runs.allSatisfy { $0["state"] as? String != "running" })
        if grow {
            // The next run recorded it from the note the first one left, and removed the note.
            #expect(notes.isEmpty, "notes left: \(notes)")
        }
    }

    @Test func gcRemovesTemporaryOutputsOfProcessesThatEndedAndKeepsLiveOnes() throws {
        let ws = try Workspace("gc-strays")
        let manifest = try DaemonTests.job(ws, "book", "")
        _ = try RenderedJob.run(ws, manifest)
        // A process that has ended, and this one, which lives.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let out = ws.url.appendingPathComponent("out/book")
        let dead = try ws.write("out/book/.book.timings.json.\(ended.processIdentifier).tmp", "{")
        // Named as AtomicFile names them (`.NAME.PID.RANDOM.tmp`), and as earlier versions did (`.NAME.PID.tmp`).
        let deadMP3 = try ws.write("out/book/.book.mp3.\(ended.processIdentifier).0123456789abcdef.tmp", "ID3")
        let live = try ws.write("out/book/.book.mp3.\(getpid()).fedcba9876543210.tmp", "ID3")
        let listed = try Tool.lectern(["gc", "--dry-run"], db: ws.db)
        #expect(listed.stdout.contains(dead.path) && listed.stdout.contains(deadMP3.path), "\(listed.stdout)")
        #expect(!listed.stdout.contains(live.path))
        #expect(FileManager.default.fileExists(atPath: dead.path))
        let removed = try Tool.lectern(["gc"], db: ws.db)
        #expect(removed.status == 0 && removed.stdout.contains("removed \(dead.path)"), "\(removed.stdout)\(removed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dead.path) && !FileManager.default.fileExists(atPath: deadMP3.path))
        #expect(FileManager.default.fileExists(atPath: live.path))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("book.mp3").path))
    }
}
