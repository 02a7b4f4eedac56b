import Foundation
import Testing
import LecternStore
import LecternPostgres
import LecternTestSupport
import PostgresNIO

/// What only the PostgreSQL store does: notifications wake a waiting process, a lost connection
/// is replaced, a store that cannot be reached says why, and a new database is migrated once.
@Suite struct PostgresStoreTests {
    @Test func aWaitEndsWhenAnotherConnectionPublishes() throws {
        let fixture = try Backend.postgres.fresh()
        let waiter = try fixture.open(), publisher = try fixture.open()
        let job = try publisher.job(manifestPath: "/b.yml", name: "b", title: nil)
        let run = try publisher.startRun(job: job)
        waiter.waitForQueueChange(timeout: 0.01)  // starts listening
        let published = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? publisher.publishChunks([ChunkTask(runId: run.id!, key: "k", request: Data(), priority: 0, ordinal: 0)])
            published.signal()
        }
        let start = Date()
        waiter.waitForQueueChange(timeout: 30)
        let waited = Date().timeIntervalSince(start)
        published.wait()
        #expect(waited < 5, "the wait lasted \(waited) s of its 30 s timeout")
        #expect(try waiter.claimChunk(worker: "w", leaseDuration: 60, runId: nil)?.key == "k")
    }

    @Test func aWaitWithoutNotificationsLastsItsTimeout() throws {
        let store = try Backend.postgres.fresh().open()
        store.waitForQueueChange(timeout: 0.01)
        let start = Date()
        store.waitForQueueChange(timeout: 0.3)
        #expect(Date().timeIntervalSince(start) >= 0.29)
    }

    @Test func aLostConnectionIsReplacedForTheNextOperation() throws {
        let fixture = try Backend.postgres.fresh()
        let store = try fixture.open(), admin = try fixture.open()
        _ = try store.job(manifestPath: "/b.yml", name: "b", title: nil)
        guard case .postgres(let address) = fixture.address else { return }
        // End every session on the database, as a restarted server or a cut network would.
        let ended = try PostgresTestServer.shared().query("""
            SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
            """, in: address)
        #expect(try ended.first?.decode(Int64.self) ?? 0 >= 2)
        #expect(try store.jobs().map(\.name) == ["b"])
        #expect(try admin.integrityCheck() == "ok")
    }

    @Test func aStoreThatCannotBeReachedSaysWhy() throws {
        let missing = "/tmp/lectern-no-server-\(getpid())"
        let address = try StoreAddress(parsing: "postgres://someone:secret@/jobs?host=\(missing)")
        let error = try #require(throws: StoreError.self) { try address.open(localFolder: URL(fileURLWithPath: "/tmp")) }
        #expect(error.message.hasPrefix("cannot connect to the job store postgres://someone@/jobs?host=\(missing)"))
        #expect(error.message.contains("\(missing)/.s.PGSQL.5432") && error.message.contains("No such file or directory"))
        #expect(!error.message.contains("secret"))

        let closedPort = try StoreAddress(parsing: "postgres://u@127.0.0.1:1/jobs")
        let unreachable = try #require(throws: StoreError.self) { try closedPort.open(localFolder: URL(fileURLWithPath: "/tmp")) }
        #expect(unreachable.message == "cannot connect to the job store postgres://u@127.0.0.1:1/jobs: Connection refused")

        let server = try PostgresTestServer.shared()
        let noDatabase = try StoreAddress(parsing: server.url(database: "absent"))
        let refused = try #require(throws: StoreError.self) { try noDatabase.open(localFolder: URL(fileURLWithPath: "/tmp")) }
        #expect(refused.message.contains("database \"absent\" does not exist"))
    }

    @Test func eachMigrationIsRecordedOnceAndAMissingOneIsReported() throws {
        let fixture = try Backend.postgres.fresh()
        let store = try fixture.open()
        guard case .postgres(let address) = fixture.address else { return }
        let server = try PostgresTestServer.shared()
        let recorded = try server.query("SELECT identifier FROM lectern_migrations ORDER BY identifier", in: address)
        #expect(try recorded.map { try $0.decode(String.self) } == ["v1", "v2", "v3", "v4", "v5", "v6", "v7"])
        #expect(try store.integrityCheck() == "ok")
        _ = try server.query("DELETE FROM lectern_migrations WHERE identifier = 'v5'", in: address)
        #expect(try store.integrityCheck() == "the schema lacks the migrations v5")
    }

    @Test func theStoreIsSharedAndNamedWithoutItsPassword() throws {
        let fixture = try Backend.postgres.fresh()
        guard case .postgres(var address) = fixture.address else { return }
        address.password = "secret"  // trust authentication ignores it
        let store = try StoreAddress.postgres(address).open(localFolder: fixture.folder)
        #expect(store.isShared && store.localFolder == fixture.folder)
        #expect(store.notesFolder == fixture.folder.appendingPathComponent("notes"))
        #expect(!store.name.contains("secret") && store.name.hasPrefix("postgres://"))
    }
}
