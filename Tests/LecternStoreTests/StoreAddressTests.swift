import Foundation
import Testing
import LecternTestSupport
import LecternStore

/// Reading what a user gives as `--store`: paths and `sqlite:PATH` are SQLite files,
/// `postgres://` URLs PostgreSQL databases; anything else is refused, naming the text.
@Suite(.onTestThreads) struct StoreAddressTests {
    @Test func pathsAndSQLiteAddressesAreSQLiteFiles() throws {
        #expect(try StoreAddress(parsing: "/var/lib/lectern/jobs.sqlite") == .sqlite(URL(fileURLWithPath: "/var/lib/lectern/jobs.sqlite")))
        #expect(try StoreAddress(parsing: "sqlite:/srv/jobs.sqlite") == .sqlite(URL(fileURLWithPath: "/srv/jobs.sqlite")))
        #expect(try StoreAddress(parsing: "sqlite:jobs.sqlite") == .sqlite(URL(fileURLWithPath: "jobs.sqlite")))
        #expect(try StoreAddress(parsing: "./a:b.sqlite").description.hasSuffix("/a:b.sqlite"))
    }

    @Test func postgresAddressesAreReadAsLibpqReadsThem() throws {
        guard case .postgres(let tcp) = try StoreAddress(parsing: "postgresql://render:s%40cret@db.example:6543/lectern?application_name=worker") else {
            Issue.record("not read as PostgreSQL"); return
        }
        #expect(tcp.user == "render" && tcp.password == "s@cret" && tcp.host == "db.example" && tcp.port == 6543)
        #expect(tcp.database == "lectern" && tcp.applicationName == "worker" && tcp.socketPath == nil)
        #expect(tcp.description == "postgres://render@db.example:6543/lectern?application_name=worker")

        guard case .postgres(let socket) = try StoreAddress(parsing: "postgres://me@/jobs?host=/run/pg") else { return }
        #expect(socket.host == nil && socket.socketPath == "/run/pg/.s.PGSQL.5432" && socket.user == "me")
        guard case .postgres(let plain) = try StoreAddress(parsing: "postgres:///jobs") else { return }
        #expect(plain.socketPath == "/var/run/postgresql/.s.PGSQL.5432" && plain.database == "jobs")
    }

    @Test func aTimeoutSetsEachOperationsDeadline() throws {
        guard case .postgres(let plain) = try StoreAddress(parsing: "postgres://db/jobs") else { return }
        #expect(plain.timeout == 30 && !plain.description.contains("timeout"))
        guard case .postgres(let short) = try StoreAddress(parsing: "postgres://db/jobs?timeout=2.5") else { return }
        #expect(short.timeout == 2.5 && short.description == "postgres://lectern@db/jobs?timeout=2.5".replacingOccurrences(of: "lectern", with: short.user))
        guard case .postgres(let again) = try StoreAddress(parsing: short.description) else { return }
        #expect(again == short, "the description reads back as the same address")
    }

    @Test(arguments: ["mysql://db/jobs", "postgres://db.example/", "postgres://db/jobs?sslmode=require", "postgres://db:99999/jobs",
                      "sqlite:", "", "postgres://u:hunter2@db/jobs?nonsense=1", "postgres://db/jobs?timeout=0", "postgres://db/jobs?timeout=soon"])
    func anythingElseIsRefusedNamingTheText(_ text: String) throws {
        let error = try #require(throws: StoreError.self) { try StoreAddress(parsing: text) }
        #expect(error.message.contains("not a") && !error.message.contains("hunter2"))
        if !text.isEmpty && !text.contains("hunter2") { #expect(error.message.contains(text)) }
    }
}
