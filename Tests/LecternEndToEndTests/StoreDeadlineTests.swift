import Foundation
import Testing
import LecternStore
import LecternPostgres
import LecternTestSupport

/// No wait without a deadline (#22): with the PostgreSQL server stopped (SIGSTOP, as a
/// partitioned network looks to its clients) for 60 s in the middle of a run, the workers and the
/// coordinator say within their deadline that the store does not answer — once, not on every
/// try — and the run finishes once the server continues.
@Suite(.serialized) struct StoreDeadlineTests {
    /// A `lectern run` in the background whose stderr goes to a file the test reads as it grows.
    final class LoggedRun: @unchecked Sendable {
        // @unchecked Sendable: `process` is set up once in init.
        let process = Process()
        let log: URL
        init(_ arguments: [String], in folder: URL, log: URL) throws {
            self.log = log
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            process.executableURL = URL(fileURLWithPath: Tool.lectern)
            process.arguments = arguments
            process.currentDirectoryURL = folder
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: log)
            try process.run()
        }
        deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        /// Waits for the run to end (killing it after `timeout`); its exit status.
        func wait(timeout: TimeInterval) -> Int32 {
            let exited = DispatchSemaphore(value: 0)
            DispatchQueue.global().async { [process] in process.waitUntilExit(); exited.signal() }
            if exited.wait(timeout: .now() + timeout) != .success { kill(process.processIdentifier, SIGKILL); exited.wait() }
            return process.terminationStatus
        }
    }

    @Test func aServerStoppedFor60SecondsIsReportedWithinTheDeadlineAndTheRunFinishesWhenItContinues() throws {
        let ws = try Workspace("store-deadline")
        let postgres = try PausablePostgres(ws, timeout: 5)
        defer { postgres.close() }
        let (address, arguments) = (postgres.address, postgres.arguments)
        #expect(address.description.contains("timeout=5"))
        let store = try BlockingStore(.postgres(address), localFolder: ws.url.appendingPathComponent("probe"))
        let workers = try (1...2).map { try WorkerHost(ws, name: "worker\($0)", store: arguments, lease: 3) }
        #expect(try eventually(timeout: 30, "two workers registered") { try store.workers().count == 2 })
        // At normal speed (twice the audio and chunks of rate 1.0): the run must still be rendering
        // when the server stops, however fast the workers get through the first chunks.
        let book = try DistributedRenderTests.aliceJob(ws, rate: 0.5)
        let coordinator = try LoggedRun(["run", "--quiet", "--workers", "0", book.path] + arguments, in: ws.url.appendingPathComponent("book"),
                                        log: ws.url.appendingPathComponent("coordinator.log"))
        #expect(try eventually(timeout: 60, "some chunks rendered") {
            try store.jobs().first.flatMap { try store.runs(jobId: $0.id!, limit: 1).first }.map { $0.chunksRendered >= 2 } ?? false
        })
        try store.close()

        // The server stops answering, as if the network were cut.
        try postgres.pause()
        let stopTime = Date()
        try #require(coordinator.process.isRunning, "the run ended before the store stopped: the test's book renders too fast here")
        let needle = "did not answer within 5 s"
        // Each says so within its deadline (5 s), give or take its heartbeat or poll (1 s) and a loaded machine.
        let heard = eventually(timeout: 20, "the coordinator and both workers saying the store does not answer within 5 s") {
            coordinator.logText.contains(needle) && workers.allSatisfy { $0.logText.contains(needle) }
        }
        let reported = Date().timeIntervalSince(stopTime)
        #expect(heard && reported <= 15, "reported after \(Int(reported)) s\ncoordinator: \(coordinator.logText)\nworkers: \(workers.map(\.logText))")
        #expect(coordinator.logText.contains("waiting for the job store") && coordinator.logText.contains(address.description),
                "the coordinator names the store: \(coordinator.logText)")
        let linesAtReport = workers.map { $0.logText.split(separator: "\n").count }
        // The outage lasts its 60 s (the fault under test, not a wait for an event).
        Thread.sleep(until: stopTime.addingTimeInterval(60))
        let quietLines = zip(workers, linesAtReport).map { $0.logText.split(separator: "\n").count - $1 }
        #expect(quietLines.allSatisfy { $0 <= 3 }, "no log line per try while the store is down: \(quietLines) more lines\n\(workers.map(\.logText))")
        #expect(coordinator.process.isRunning, "the run waits for the store")
        for log in workers.map(\.logText) + [coordinator.logText] {
            #expect(BoundedRetryTests.lines(log, containing: "does not answer") <= 1 && BoundedRetryTests.lines(log, containing: "waiting for the job store") <= 1,
                    "said once per outage: \(log)")
        }

        postgres.resume()
        let status = coordinator.wait(timeout: 180)
        #expect(status == 0, "\(coordinator.logText)\n\(workers.map(\.logText).joined(separator: "\n"))")
        #expect(coordinator.logText.contains("the job store answers again"), "\(coordinator.logText)")
        #expect(eventually(timeout: 20, "the workers saying the store answers again") {
            workers.allSatisfy { $0.logText.contains("the job store answers again") || $0.logText.contains("chunks finish again") }
        })
        let after = try BlockingStore(.postgres(address), localFolder: ws.url.appendingPathComponent("probe"))
        let run = try #require(try after.jobs().first.flatMap { try after.runs(jobId: $0.id!, limit: 1).first })
        #expect(run.state == .succeeded)
        let sidecar = try JSONSerialization.jsonObject(with: Data(contentsOf: ws.url.appendingPathComponent("book/out/alice.timings.json")))
        #expect((sidecar as? [String: Any])?["chapters"] != nil)
        for worker in workers { #expect(worker.terminate() == 0, "\(worker.logText)") }
    }
}
