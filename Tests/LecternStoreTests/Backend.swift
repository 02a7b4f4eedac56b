import Foundation
import Synchronization
import Testing
import LecternStore
import LecternTestSupport

/// The job store's two backends, for tests that run on both: each test gets a fresh, empty
/// store (a new SQLite file, or a new database on the private PostgreSQL server).
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    var testDescription: String { rawValue }

    /// A fresh store of this backend.
    func fresh() throws -> StoreFixture {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-store-\(rawValue)-\(UUID().uuidString)")
        switch self {
        case .sqlite: return StoreFixture(folder: folder, address: .sqlite(folder.appendingPathComponent("jobs.sqlite")))
        case .postgres: return StoreFixture(folder: folder, address: .postgres(try PostgresTestServer.shared().createDatabase()))
        }
    }
}

/// One fresh store: its address, and its host folder (removed when the fixture goes).
final class StoreFixture: Sendable {
    let folder: URL
    let address: StoreAddress

    init(folder: URL, address: StoreAddress) {
        self.folder = folder
        self.address = address
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Opens another store object on the same data (another connection, as another process would).
    func open() async throws -> any JobStore { try await address.open(localFolder: folder) }
}

/// Runs `body` in `count` tasks at once (each its own store object, as separate processes
/// would be); returns the results in task order, recording any error.
func concurrently<T: Sendable>(_ count: Int, _ body: @Sendable @escaping (Int) async throws -> T) async -> [T?] {
    let results = Results<T>(count)
    await withTaskGroup(of: Void.self) { group in
        for i in 0..<count {
            group.addTask {
                do { results.set(i, try await body(i)) } catch { results.fail("\(error)") }
            }
        }
    }
    for failure in results.failures { Issue.record(Comment(rawValue: failure)) }
    return results.all
}

/// Results collected from concurrent work.
final class Results<T: Sendable>: Sendable {
    private let items: Mutex<[T?]>
    private let failuresList = Mutex<[String]>([])
    init(_ count: Int) { items = Mutex(Array(repeating: nil, count: count)) }
    func set(_ i: Int, _ value: T) { items.withLock { $0[i] = value } }
    func fail(_ message: String) { failuresList.withLock { $0.append(message) } }
    var all: [T?] { items.withLock { $0 } }
    var failures: [String] { failuresList.withLock { $0 } }
}

extension Date {
    /// Milliseconds since 1970, for comparing dates as the store keeps them.
    var ms: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }
}
