import Foundation
import Testing
import LecternStore
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
        // End every other session on the database, as a restarted server or a cut network would.
        let killer = try PostgresConnection.connect(on: PostgresConnection.defaultEventLoopGroup.any(),
                                                    configuration: .init(unixSocketPath: address.socketPath!, username: address.user,
                                                                         password: nil, database: address.database),
                                                    id: 9, logger: PostgresTestServer.logger).wait()
        defer { try? killer.close().wait() }
        let ended = try killer.query("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
                                     logger: PostgresTestServer.logger).wait()
        #expect(try ended.rows.first?.decode(Int64.self) ?? 0 >= 2)
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

        let server = try PostgresTestServer.shared()
        let noDatabase = try StoreAddress(parsing: server.url(database: "absent"))
        let refused = try #require(throws: StoreError.self) { try noDatabase.open(localFolder: URL(fileURLWithPath: "/tmp")) }
        #expect(refused.message.contains("database \"absent\" does not exist"))
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
