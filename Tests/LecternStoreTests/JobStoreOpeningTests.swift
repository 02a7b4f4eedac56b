import Foundation
import Synchronization
import Testing
import LecternTestSupport
import LecternStore

/// Opening the store: several processes (here, connections) that open a new database at the same
/// moment all get a migrated store, as a daemon and a `lectern run` started together would.
@Suite(.onTestThreads) struct JobStoreOpeningTests {
    @Test(arguments: Backend.allCases)
    func openingANewStoreFromManyConnectionsAtOnceMigratesItOnce(_ backend: Backend) async throws {
        for round in 0..<(backend == .sqlite ? 20 : 4) {
            let fixture = try backend.fresh()
            let failures = Failures()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        do { _ = try await fixture.open() } catch { failures.add("\(error)") }
                    }
                }
            }
            #expect(failures.all.isEmpty, "round \(round): \(failures.all)")
            await #expect(try fixture.open().integrityCheck() == "ok")
        }
    }
}

/// Errors collected from concurrent work.
final class Failures: Sendable {
    private let items = Mutex<[String]>([])
    func add(_ item: String) { items.withLock { $0.append(item) } }
    var all: [String] { items.withLock { $0 } }
}
