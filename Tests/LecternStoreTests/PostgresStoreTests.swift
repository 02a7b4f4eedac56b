import Foundation
import Testing
import LecternStore
import LecternPostgres
import LecternTestSupport
import PostgresNIO

/// What only the PostgreSQL store does: notifications wake a waiting process, a lost connection
/// is replaced, a store that cannot be reached says why, and a new database is migrated once.
@Suite(.onTestThreads) struct PostgresStoreTests {
    @Test func aWaitEndsWhenAnotherConnectionPublishes() async throws {
        let fixture = try Backend.postgres.fresh()
        let waiter = try await fixture.open(), publisher = try await fixture.open()
        let job = try await publisher.job(manifestPath: "/b.yml", name: "b", title: nil)
        let run = try await publisher.startRun(job: job)
        await waiter.waitForQueueChange(timeout: 0.01)  // starts listening
        let publishing = Task(executorPreference: TestThreads.shared) {
            try? await publisher.publishChunks([ChunkTask(runId: run.id!, key: "k", request: Data(), priority: 0, ordinal: 0)])
        }
        let start = Date()
        await waiter.waitForQueueChange(timeout: 30)
        let waited = Date().timeIntervalSince(start)
        await publishing.value
        #expect(waited < 5, "the wait lasted \(waited) s of its 30 s timeout")
        await #expect(try waiter.claimChunk(worker: "w", leaseDuration: 60, runId: nil)?.key == "k")
    }

    @Test func aWaitWithoutNotificationsLastsItsTimeout() async throws {
        let store = try await Backend.postgres.fresh().open()
        await store.waitForQueueChange(timeout: 0.01)
        let start = Date()
        await store.waitForQueueChange(timeout: 0.3)
        #expect(Date().timeIntervalSince(start) >= 0.29)
    }

    @Test func aLostConnectionIsReplacedForTheNextOperation() async throws {
        let fixture = try Backend.postgres.fresh()
        let store = try await fixture.open(), admin = try await fixture.open()
        _ = try await store.job(manifestPath: "/b.yml", name: "b", title: nil)
        guard case .postgres(let address) = fixture.address else { return }
        // End every session on the database, as a restarted server or a cut network would.
        let ended = try PostgresTestServer.shared().query("""
            SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
            """, in: address)
        #expect(try ended.first?.decode(Int64.self) ?? 0 >= 2)
        await #expect(try store.jobs().map(\.name) == ["b"])
        await #expect(try admin.integrityCheck() == "ok")
    }

    @Test func aStoreThatCannotBeReachedSaysWhy() async throws {
        let missing = "/tmp/lectern-no-server-\(getpid())"
        let address = try StoreAddress(parsing: "postgres://someone:secret@/jobs?host=\(missing)")
        let error = try await #require(throws: StoreError.self) { try await address.open(localFolder: URL(fileURLWithPath: "/tmp")) }
        #expect(error.message.hasPrefix("cannot connect to the job store postgres://someone@/jobs?host=\(missing)"))
        #expect(error.message.contains("\(missing)/.s.PGSQL.5432") && error.message.contains("No such file or directory"))
        #expect(!error.message.contains("secret"))

        let closedPort = try StoreAddress(parsing: "postgres://u@127.0.0.1:1/jobs")
        let unreachable = try await #require(throws: StoreError.self) { try await closedPort.open(localFolder: URL(fileURLWithPath: "/tmp")) }
        #expect(unreachable.message == "cannot connect to the job store postgres://u@127.0.0.1:1/jobs: Connection refused")

        let server = try PostgresTestServer.shared()
        let noDatabase = try StoreAddress(parsing: server.url(database: "absent"))
        let refused = try await #require(throws: StoreError.self) { try await noDatabase.open(localFolder: URL(fileURLWithPath: "/tmp")) }
        #expect(refused.message.contains("database \"absent\" does not exist"))
    }

    @Test func eachMigrationIsRecordedOnceAndAMissingOneIsReported() async throws {
        let fixture = try Backend.postgres.fresh()
        let store = try await fixture.open()
        guard case .postgres(let address) = fixture.address else { return }
        let server = try PostgresTestServer.shared()
        let recorded = try server.query("SELECT identifier FROM lectern_migrations ORDER BY identifier", in: address)
        #expect(try recorded.map { try $0.decode(String.self) } == ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9"])
        await #expect(try store.integrityCheck() == "ok")
        _ = try server.query("DELETE FROM lectern_migrations WHERE identifier = 'v5'", in: address)
        await #expect(try store.integrityCheck() == "the schema lacks the migrations v5")
    }

    @Test func theStoreIsSharedAndNamedWithoutItsPassword() async throws {
        let fixture = try Backend.postgres.fresh()
        guard case .postgres(var address) = fixture.address else { return }
        address.password = "secret"  // trust authentication ignores it
        let store = try await StoreAddress.postgres(address).open(localFolder: fixture.folder)
        #expect(store.isShared && store.localFolder == fixture.folder)
        #expect(store.notesFolder == fixture.folder.appendingPathComponent("notes"))
        #expect(!store.name.contains("secret") && store.name.hasPrefix("postgres://"))
    }
}
