import Foundation
import Testing
import LecternStore

/// Opening the store: several processes (here, connections) that open a new database at the same
/// moment all get a migrated store, as a daemon and a `lectern run` started together would.
struct JobStoreOpeningTests {
    @Test func openingANewStoreFromManyConnectionsAtOnceMigratesItOnce() throws {
        for round in 0..<20 {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-store-open-\(getpid())-\(round)")
            try? FileManager.default.removeItem(at: folder)
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("jobs.sqlite")
            let failures = Failures()
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                do { _ = try SQLiteJobStore(url: url) } catch { failures.add("\(error)") }
            }
            #expect(failures.all.isEmpty, "round \(round): \(failures.all)")
            #expect(try SQLiteJobStore(url: url).integrityCheck() == "ok")
        }
    }
}

/// Errors collected from concurrent work.
final class Failures: @unchecked Sendable {
    // @unchecked Sendable is safe: `items` is only touched while holding `lock`.
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ item: String) { lock.lock(); items.append(item); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
}
