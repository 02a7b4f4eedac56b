import Foundation
import LecternStore
import LecternPostgres
import PostgresNIO

/// A private PostgreSQL server for the tests: Debian's `initdb` in a temporary folder (trust
/// authentication, no fsync), `postgres` listening only on a Unix socket in that folder, one per
/// test process, with a fresh database per test (``createDatabase()``).
///
/// The server runs under a small shell that reads a pipe from this process: when the pipe closes
/// — the process ends, normally or in a crash — the shell stops the server and removes the
/// folder, so no server outlives its tests. `initdb` and `postgres` refuse to run as root, so as
/// root they run as user 1000 of a new user namespace (`unshare -U`; no real user needed), or as
/// the `postgres` user when user namespaces are not allowed.
public final class PostgresTestServer: @unchecked Sendable {
    // @unchecked Sendable is safe: `admin` and `databases` are only touched holding `lock`.
    public let folder: URL
    public static let user = "lectern"
    private let shell: Process
    private let keepAlive: Pipe
    private let lock = NSLock()
    private var admin: PostgresConnection?
    private var databases = 0

    /// The server of this test process, started on first use.
    public static func shared() throws -> PostgresTestServer { try started.get() }
    private static let started = Result { try PostgresTestServer() }

    /// The folder of the PostgreSQL programs: the newest `/usr/lib/postgresql/*/bin` with `initdb`.
    public static func binaries() throws -> URL {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        for version in versions.reversed() where FileManager.default.isExecutableFile(atPath: "\(root)/\(version)/bin/initdb") {
            return URL(fileURLWithPath: "\(root)/\(version)/bin")
        }
        throw TestServerError("no PostgreSQL server is installed (no \(root)/*/bin/initdb): `make test` installs it (Debian's postgresql package), or run `apt-get install postgresql`")
    }

    /// Initializes and starts a server; returns once it accepts connections.
    public init() throws {
        let bin = try Self.binaries()
        // A short path: a Unix socket's path may not exceed 107 bytes.
        folder = URL(fileURLWithPath: "/tmp/lectern-pg-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = """
            set -u
            dir=$1; bin=$2
            "$bin/initdb" -D "$dir/data" -U \(Self.user) -A trust -E UTF8 --locale=C --no-sync --no-instructions >"$dir/initdb.log" 2>&1 || exit 1
            "$bin/postgres" -D "$dir/data" -k "$dir" -c listen_addresses= -c fsync=off -c synchronous_commit=off \
                -c full_page_writes=off -c max_connections=300 -c shared_buffers=32MB >"$dir/server.log" 2>&1 </dev/null &
            pid=$!
            cat >/dev/null  # until the test process's end of the pipe closes
            kill -INT "$pid" 2>/dev/null
            wait "$pid"
            rm -rf "$dir"
            """
        shell = Process()
        keepAlive = Pipe()
        let run = try Self.unprivileged(folder: folder)
        shell.executableURL = URL(fileURLWithPath: run[0])
        shell.arguments = Array(run.dropFirst()) + ["/bin/sh", "-c", script, "sh", folder.path, bin.path]
        shell.standardInput = keepAlive
        _ = fcntl(keepAlive.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        try shell.run()
        try waitUntilReady()
    }

    /// The command prefix that runs a program as an unprivileged user (nothing when not root).
    static func unprivileged(folder: URL) throws -> [String] {
        guard geteuid() == 0 else { return ["/usr/bin/env"] }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        probe.arguments = ["-U", "--map-user=1000", "--map-group=1000", "/bin/true"]
        probe.standardError = FileHandle.nullDevice
        if (try? probe.run()) != nil {
            probe.waitUntilExit()
            if probe.terminationStatus == 0 { return ["/usr/bin/unshare", "-U", "--map-user=1000", "--map-group=1000"] }
        }
        guard let user = getpwnam("postgres") else {
            throw TestServerError("cannot run PostgreSQL as an unprivileged user: user namespaces (unshare -U) are not allowed and there is no postgres user")
        }
        guard chown(folder.path, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
            throw TestServerError("cannot give \(folder.path) to the postgres user: \(String(cString: strerror(errno)))")
        }
        return ["/usr/bin/setpriv", "--reuid=postgres", "--regid=postgres", "--clear-groups"]
    }

    /// Connects to the `postgres` database until the server accepts (at most 60 s).
    private func waitUntilReady() throws {
        let deadline = Date().addingTimeInterval(60)
        let address = try PostgresAddress(parsing: "postgres://\(Self.user)@/postgres?host=\(folder.path)")
        while true {
            guard shell.isRunning else { throw TestServerError("the PostgreSQL server did not start: \(logs())") }
            if FileManager.default.fileExists(atPath: address.socketPath!),
               let connection = try? PostgresConnection.connect(on: PostgresConnection.defaultEventLoopGroup.any(),
                                                                configuration: .init(unixSocketPath: address.socketPath!, username: Self.user,
                                                                                     password: nil, database: "postgres"),
                                                                id: 0, logger: Self.logger).wait() {
                admin = connection
                return
            }
            guard Date() < deadline else { throw TestServerError("the PostgreSQL server did not accept connections within 60 s: \(logs())") }
            usleep(20_000)  // polling a server starting up, not standing in for an event
        }
    }

    public static let logger: Logger = {
        var logger = Logger(label: "lectern.test-postgres")
        logger.logLevel = .critical
        return logger
    }()

    private func logs() -> String {
        ["initdb.log", "server.log"].compactMap { try? String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
            .joined(separator: "\n")
    }

    /// A new, empty database on the server; returns its address.
    public func createDatabase() throws -> PostgresAddress {
        lock.lock()
        defer { lock.unlock() }
        databases += 1
        let name = "test_\(databases)"
        guard let admin else { throw TestServerError("the PostgreSQL server has stopped") }
        _ = try admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: Self.logger).wait()
        return try PostgresAddress(parsing: url(database: name))
    }

    /// Runs `sql` on a new connection to the database at `address` (as another client would).
    public func query(_ sql: String, in address: PostgresAddress) throws -> [PostgresRow] {
        let connection = try PostgresConnection.connect(on: PostgresConnection.defaultEventLoopGroup.any(),
                                                        configuration: .init(unixSocketPath: address.socketPath!, username: address.user,
                                                                             password: nil, database: address.database),
                                                        id: 0, logger: Self.logger).wait()
        defer { try? connection.close().wait() }
        return try connection.query(PostgresQuery(unsafeSQL: sql), logger: Self.logger).wait().rows
    }

    /// The address of a database of this server, as a user would write it.
    public func url(database: String) -> String {
        "postgres://\(Self.user)@/\(database)?host=\(folder.path)"
    }

    /// Stops the server and removes its folder (else that happens when this process ends).
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        try? admin?.close().wait()
        admin = nil
        try? keepAlive.fileHandleForWriting.close()
        shell.waitUntilExit()
    }
}

/// Why the test server could not be started or used.
public struct TestServerError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
