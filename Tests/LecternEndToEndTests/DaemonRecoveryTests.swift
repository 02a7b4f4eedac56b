import Foundation
import Testing
import LecternSchedule
import LecternStore
import LecternTestSupport

/// `lectern daemon` after a crash and beside bad manifests: `kill -9` during a watch-triggered
/// and a daily scheduled run, then a restart that resumes both at once from their finished
/// chunks; a broken manifest shown by `status` and logged once per version; a manifest that
/// cannot be read delaying neither other jobs nor a stop.
@Suite(.serialized)
struct DaemonRecoveryTests {
    /// A book of `chapters` chapters, two chunks each.
    static func book(chapters: Int, words: String = "again") -> String {
        (1...chapters).map { c in
            "Chapter \(c)\n\n" + (0..<150).map { "The narrator reads sentence number \($0) of chapter \(c) \(words)." }.joined(separator: " ") + "\n"
        }.joined(separator: "\n")
    }

    /// A daily cron expression whose time was ten minutes ago, in this machine's time zone.
    static var dailyTenMinutesAgo: String {
        let c = Calendar.current.dateComponents([.hour, .minute], from: Date().addingTimeInterval(-600))
        return "\(c.minute!) \(c.hour!) * * *"
    }

    @Test func kill9DuringAWatchAndADailyRunIsResumedAtRestartFromTheFinishedChunks() throws {
        let ws = try Workspace("daemon-kill")
        try DaemonTests.job(ws, "watched", "watch: true", text: Self.book(chapters: 5))
        try DaemonTests.job(ws, "daily", "schedule: \"\(Self.dailyTenMinutesAgo)\"", text: Self.book(chapters: 5))
        // Seen two hours ago: today's time was missed, so the daemon catches up at once.
        let store = try BlockingStore(url: ws.db)
        let dailyJob = try store.job(manifestPath: ws.url.appendingPathComponent("Jobs/daily.yml").standardizedFileURL.path, name: "daily", title: nil)
        _ = try store.registerSchedule(jobId: dailyJob.id!, expression: Self.dailyTenMinutesAgo, timeZone: nil, watch: false,
                                       watchVersion: nil, now: Date().addingTimeInterval(-7200))
        let probe = try StoreProbe(ws.db)
        let arguments = ["--debounce", "0.5", "--workers", "1", "--max-concurrent", "2"]
        let first = try DaemonProcess(ws, arguments: arguments, name: "first")
        let added = eventually(timeout: 30, "the watched job to be added") { first.logText.contains("job added job=watched") }
        #expect(added)
        try ws.write("src/watched.txt", Self.book(chapters: 5, words: "once more"))

        // Both runs under way, each with finished chunks: kill the daemon as a crash would.
        func running(_ trigger: Trigger) throws -> RunRecord? {
            try probe.runs().first { $0.trigger == trigger && $0.state == .running }
        }
        #expect(try eventually(timeout: 90, "both runs to have finished chunks") {
            try [Trigger.watch, .schedule].allSatisfy { t in try running(t).map { try !probe.rendered(by: $0).isEmpty } ?? false }
        })
        kill(first.process.processIdentifier, SIGKILL)
        first.process.waitUntilExit()
        let killed = try probe.runs()
        try #require(killed.count == 2 && killed.allSatisfy { $0.state == .running },
                     "the runs finished before the kill: \(killed.map { "\($0.trigger) \($0.state)" })")
        let finished = try Dictionary(uniqueKeysWithValues: killed.map { ($0.id!, Set(try probe.rendered(by: $0).map(\.key))) })
        // Before any restart, status already tells the dead runs from running ones.
        let shown = try Tool.lectern(["status", "--json"], db: ws.db)
        #expect(!shown.stdout.contains("\"running\"") && shown.stdout.components(separatedBy: "\"interrupted\"").count == 3, "\(shown.stdout)")

        // What the crash left beside the outputs is listed by gc (a restarted run removes it too).
        let strays = temporaryFiles(in: [ws.url.appendingPathComponent("out")])
        #expect(!strays.isEmpty, "a killed run leaves its sidecar's temporary file")
        let gc = try Tool.lectern(["gc", "--dry-run"], db: ws.db)
        for stray in strays { #expect(gc.stdout.contains(stray), "gc lists \(stray):\n\(gc.stdout)") }

        let restarted = Date()
        let second = try DaemonProcess(ws, arguments: arguments, name: "second")
        #expect(try eventually(timeout: 5, "both runs resumed within 5 s") {
            try probe.runs().filter { $0.resumesRunId != nil }.count == 2
        }, "daemon log:\n\(second.logText)")
        let resumed = try probe.runs().filter { $0.resumesRunId != nil }
        #expect(resumed.allSatisfy { $0.startedAt.timeIntervalSince(restarted) < 5 })
        #expect(Set(resumed.map(\.trigger)) == [.watch, .schedule])
        #expect(try eventually(timeout: 120, "the resumed runs to succeed") {
            try probe.runs().filter { $0.resumesRunId != nil && $0.state == .succeeded }.count == 2
        }, "daemon log:\n\(second.logText)")
        let (status, _) = second.terminate()
        #expect(status == 0)

        let runs = try probe.runs()
        #expect(runs.count == 4, "\(runs.map { "\($0.trigger) \($0.state) resumes \($0.resumesRunId ?? 0) \($0.error ?? "")" })")
        for run in runs where run.resumesRunId != nil {
            let old = try #require(killed.first { $0.id == run.resumesRunId && $0.trigger == run.trigger })
            // Every chunk the killed run finished is reused, not rendered again.
            let rerendered = Set(try probe.rendered(by: run).map(\.key)).intersection(finished[old.id!] ?? [])
            #expect(rerendered.isEmpty, "\(run.trigger): \(rerendered.count) finished chunks rendered again")
            #expect(run.chunksReused >= finished[old.id!]?.count ?? 0)
        }
        #expect(try killed.allSatisfy { k in try probe.runs().first { $0.id == k.id }?.state == .interrupted })
        // The change is in the watched job's book, and nothing temporary remains.
        let sidecar = try String(contentsOf: ws.url.appendingPathComponent("out/watched/watched.timings.json"), encoding: .utf8)
        #expect(sidecar.contains("once more") && !sidecar.contains("again"))
        #expect(temporaryFiles(in: [ws.url]).isEmpty, "\(temporaryFiles(in: [ws.url]))")
    }

    @Test func aBrokenManifestIsShownByStatusAndLoggedOncePerVersion() throws {
        let ws = try Workspace("daemon-broken")
        try DaemonTests.job(ws, "healthy", "schedule: \"\(DaemonTests.farMinute) * * * *\"")
        try DaemonTests.seenLongAgo(ws, ["healthy"])
        // A cron expression that can never fire is an error at its line and key.
        try DaemonTests.job(ws, "never", "watch: true\nschedule: \"0 0 31 2 *\"")
        let probe = try StoreProbe(ws.db)
        let daemon = try DaemonProcess(ws)
        #expect(try eventually(timeout: 60, "the healthy job's run") { try probe.runs().contains { $0.state == .succeeded } })
        func error(of name: String) throws -> String? {
            let json = try Tool.lectern(["status", "--json"], db: ws.db)
            let decoded = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            let jobs = decoded?["jobs"] as? [[String: Any]] ?? []
            return jobs.first { $0["name"] as? String == name }?["manifestError"] as? String
        }
        let shown = try #require(try error(of: "never"))
        #expect(shown.contains("never.yml:8") && shown.contains("schedule") && shown.contains("can never fire"), "\(shown)")
        #expect(try error(of: "healthy") == nil)
        let check = try Tool.run(Tool.lectern, ["check", ws.url.appendingPathComponent("Jobs/never.yml").path])
        #expect(check.status != 0 && check.stderr.contains("can never fire"), "\(check.stderr)")

        // Many polls later (the healthy run took several), it was logged once; a new version once more.
        func logged() -> Int { daemon.logText.components(separatedBy: "manifest not loaded").count - 1 }
        #expect(logged() == 1, "\(daemon.logText)")
        try DaemonTests.job(ws, "never", "watch: true\nschedule: \"0 0 30 2 *\"")
        #expect(try eventually(timeout: 10, "the new version's error") { try error(of: "never")?.contains("0 0 30 2 *") == true })
        #expect(logged() == 2)
        // Fixed, the error goes.
        try DaemonTests.job(ws, "never", "watch: true")
        #expect(try eventually(timeout: 10, "the error cleared") { try error(of: "never") == nil })
        let (status, _) = daemon.terminate()
        #expect(status == 0)
        #expect(logged() == 2)
    }

    @Test func aManifestThatCannotBeReadDelaysNeitherOtherJobsNorAStop() throws {
        let ws = try Workspace("daemon-stuck")
        try DaemonTests.job(ws, "healthy", "schedule: \"\(DaemonTests.farMinute) * * * *\"")
        try DaemonTests.seenLongAgo(ws, ["healthy"])
        // A named pipe nobody writes to: reading it blocks for ever, as a hung file system would.
        let fifo = ws.url.appendingPathComponent("Jobs/stuck.yml")
        try #require(mkfifo(fifo.path, 0o644) == 0)
        let probe = try StoreProbe(ws.db)
        let daemon = try DaemonProcess(ws)
        #expect(try eventually(timeout: 60, "the healthy job's run") { try probe.runs().contains { $0.state == .succeeded } },
                "daemon log:\n\(daemon.logText)")
        let (status, seconds) = daemon.terminate()
        #expect(status == 0, "daemon log:\n\(daemon.logText)")
        #expect(seconds < 3, "stopped after \(seconds) s")
    }
}
