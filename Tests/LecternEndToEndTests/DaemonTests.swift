import Foundation
import Testing
import LecternStore
import LecternTestSupport

/// `lectern daemon` as a process: scheduled and watched runs, two daemons on one store, a
/// failing job retried with backoff beside a healthy one, and clean stops on SIGTERM.
@Suite(.serialized)
struct DaemonTests {
    static let book = """
        Chapter 1

        The first chapter is short. It has two sentences.

        Chapter 2

        The second chapter is short too. Nothing happens in it.

        Chapter 3

        The third chapter ends the book.

        """

    /// A job manifest reading `src/NAME.txt` fast, with the given scheduling keys.
    @discardableResult
    static func job(_ ws: Workspace, _ name: String, _ scheduling: String, text: String? = book) throws -> URL {
        if let text { try ws.write("src/\(name).txt", text) }
        return try ws.write("Jobs/\(name).yml", """
            title: \(name)
            output: ../out/\(name)
            sources:
              - path: ../src/\(name).txt
                chapters: { heading: '^Chapter \\d+$' }
            voice: { name: en-us, wpm: 400 }
            \(scheduling)
            """)
    }

    /// A cron minute about half an hour away: its last time was long enough ago to be missed,
    /// and its next does not come during the test.
    static var farMinute: Int { (Calendar.current.component(.minute, from: Date()) + 30) % 60 }

    /// Registers jobs with the store as a daemon would have two hours ago, so that a daemon
    /// started now finds scheduled times missed and catches up at once.
    static func seenLongAgo(_ ws: Workspace, _ names: [String], store given: BlockingStore? = nil) throws {
        let store = try given ?? BlockingStore(url: ws.db)
        for name in names {
            let path = ws.url.appendingPathComponent("Jobs/\(name).yml").standardizedFileURL.path
            let job = try store.job(manifestPath: path, name: name, title: name)
            _ = try store.registerSchedule(jobId: job.id!, expression: "\(farMinute) * * * *", timeZone: nil, watch: false,
                                           watchVersion: nil, now: Date().addingTimeInterval(-7200))
        }
    }

    @Test func aWatchedEditRerendersOnlyItsChapterOnceAndSIGTERMExitsCleanly() throws {
        let ws = try Workspace("daemon-watch")
        let manifest = try Self.job(ws, "book", "schedule: \"* * * * *\"\ntimezone: Europe/Berlin\nwatch: true")
        _ = try RenderedJob.run(ws, manifest)  // the first render, by hand
        let probe = try StoreProbe(ws.db)
        let before = try probe.runs().count

        // The daemon's clock is set 3 s before a minute, so the schedule comes due at once.
        let second = Calendar.current.component(.second, from: Date())
        let daemon = try DaemonProcess(ws, arguments: ["--clock-offset=\(57 - second)"])
        // The scheduled run finds the outputs current: it is counted on the first run, not listed.
        #expect(try eventually(timeout: 60, "a scheduled run") {
            try probe.runs().last.map { $0.upToDateRuns >= 1 } ?? false
        })
        try ws.write("src/book.txt", Self.book.replacingOccurrences(of: "Nothing happens in it.", with: "A rabbit runs past."))
        #expect(try eventually(timeout: 60, "a run for the edit") {
            try probe.runs().dropFirst(before).contains { $0.trigger == .watch && $0.state == .succeeded }
        })
        let (status, seconds) = daemon.terminate()
        #expect(status == 0, "daemon log:\n\(daemon.logText)")
        #expect(seconds < 10)

        let runs = try probe.runs().dropFirst(before)
        #expect(runs.allSatisfy { $0.state == .succeeded }, "\(runs.map { "\($0.trigger) \($0.state)" })")
        let rendering = runs.filter { $0.chunksRendered > 0 }
        try #require(rendering.count == 1, "runs that rendered: \(rendering.map { "\($0.trigger) \($0.chunksRendered)" })")
        #expect(rendering[0].trigger == .watch)
        let chapters = try probe.chapters(of: rendering[0]).filter { $0.chunksRendered > 0 }.map(\.number)
        #expect(chapters == [2])
        #expect(daemon.logText.contains("<6>run started"), "journald priority prefixes in the log")
    }

    @Test func sigtermDuringARunCancelsItAndExitsZeroWithinTenSeconds() throws {
        let ws = try Workspace("daemon-stop")
        // Every sentence different, so that no chunk repeats another (a repeated one is rendered
        // once): the run lasts long enough to be caught rendering.
        let long = (1...6).map { chapter in
            "Chapter \(chapter)\n\n" + (1...120).map { "The narrator reads sentence \($0) of chapter \(chapter) aloud. " }.joined() + "\n"
        }.joined(separator: "\n")
        try Self.job(ws, "long", "schedule: \"\(Self.farMinute) * * * *\"", text: long)
        try Self.seenLongAgo(ws, ["long"])
        let probe = try StoreProbe(ws.db)
        let daemon = try DaemonProcess(ws)
        #expect(try eventually(timeout: 60, "the catch-up run to start rendering") {
            try probe.runs().contains { $0.state == .running && $0.wordsDone > 0 }
        })
        let (status, seconds) = daemon.terminate()
        #expect(status == 0, "daemon log:\n\(daemon.logText)")
        #expect(seconds < 10, "stopped after \(seconds) s")
        let runs = try probe.runs()
        #expect(runs.count == 1)
        #expect(runs.allSatisfy { $0.state == .cancelled }, "\(runs.map(\.state))")
        #expect(runs.first?.trigger == .schedule)
        #expect(temporaryFiles(in: [ws.url.appendingPathComponent("out")]).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: ws.url.appendingPathComponent("out/long/long.mp3").path))
    }

    @Test func twoDaemonsOnOneStoreRunEachDueJobExactlyOnce() throws {
        let ws = try Workspace("daemon-pair")
        let names = ["ash", "birch", "cedar"]
        for name in names { try Self.job(ws, name, "schedule: \"\(Self.farMinute) * * * *\"") }
        try Self.seenLongAgo(ws, names)
        let probe = try StoreProbe(ws.db)
        let first = try DaemonProcess(ws, name: "first"), second = try DaemonProcess(ws, name: "second")
        #expect(try eventually(timeout: 90, "a run of each job") {
            Set(try probe.runs().filter { $0.state == .succeeded }.map(\.jobId)).count == names.count
        })
        // Both daemons have loaded the jobs and are past the due time they shared.
        let known = eventually(timeout: 10, "both daemons to know every job") {
            [first, second].allSatisfy { d in names.allSatisfy { d.logText.contains("job added job=\($0)") } }
        }
        #expect(known)
        let stops = [first.terminate(), second.terminate()]
        #expect(stops.allSatisfy { $0.status == 0 }, "\(first.logText)\n\(second.logText)")
        let runs = try probe.runs()
        #expect(runs.count == names.count, "\(runs.map { "job \($0.jobId) \($0.trigger) \($0.state)" })")
        #expect(Set(runs.map(\.jobId)).count == names.count)
        #expect(runs.allSatisfy { $0.trigger == .schedule && $0.state == .succeeded })
        let started = [first, second].map { $0.logText.components(separatedBy: "run started").count - 1 }
        #expect(started.reduce(0, +) == names.count, "runs started per daemon: \(started)")
    }

    @Test func aJobWithAMissingSourceIsRetriedWithBackoffWhileOthersRun() throws {
        let ws = try Workspace("daemon-retry")
        try Self.job(ws, "broken", "schedule: \"\(Self.farMinute) * * * *\"\nretry: { limit: 2, delay: 1 }", text: nil)
        try Self.job(ws, "healthy", "watch: true")
        try Self.seenLongAgo(ws, ["broken"])
        let probe = try StoreProbe(ws.db)
        let daemon = try DaemonProcess(ws)
        let store = try BlockingStore(url: ws.db)
        func broken() throws -> [RunRecord] {
            guard let job = try store.jobs().first(where: { $0.name == "broken" }) else { return [] }
            return try store.runs(jobId: job.id!, limit: 100).sorted { $0.id! < $1.id! }
        }
        #expect(try eventually(timeout: 30, "the broken job's first failure") { try broken().contains { $0.state == .failed } })
        // The other job keeps running: an edit of its source is rendered.
        try ws.write("src/healthy.txt", Self.book + "Chapter 4\n\nAn added chapter.\n")
        #expect(try eventually(timeout: 60, "the healthy job's run") {
            try probe.runs().contains { $0.trigger == .watch && $0.state == .succeeded }
        })
        #expect(try eventually(timeout: 60, "three failed runs (the first and two retries)") { try broken().count >= 3 })

        let json = try Tool.lectern(["status", "--json"], db: ws.db)
        let (status, _) = daemon.terminate()
        #expect(status == 0)
        let runs = try broken()
        #expect(runs.count == 3, "runs of the broken job: \(runs.map { "\($0.trigger) \($0.state)" })")
        #expect(runs.allSatisfy { $0.state == .failed && ($0.error ?? "").contains("no such file") })
        // Backoff: 1 s, then 2 s after each failure.
        if runs.count == 3 {
            let gaps = zip(runs, runs.dropFirst()).map { $1.startedAt.timeIntervalSince($0.endedAt ?? $0.startedAt) }
            #expect(gaps[0] >= 0.9 && gaps[1] >= 1.9 && gaps[1] > gaps[0], "gaps \(gaps)")
        }
        let decoded = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let jobs = decoded?["jobs"] as? [[String: Any]] ?? []
        let entry = try #require(jobs.first { $0["name"] as? String == "broken" })
        let schedule = try #require(entry["schedule"] as? [String: Any])
        #expect(schedule["failures"] as? Int == 3)
        #expect((schedule["lastError"] as? String ?? "").contains("no such file"))
        let runError = ((entry["runs"] as? [[String: Any]])?.first?["error"] as? String) ?? ""
        #expect(runError.contains("no such file"), "\(runError)")
    }
}
