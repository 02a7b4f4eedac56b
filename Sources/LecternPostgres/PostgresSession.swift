import Foundation
import LecternCore
import LecternStore
import PostgresNIO

/// One connection to a PostgreSQL job store, used from async code: a call suspends on
/// postgres-nio's futures, up to the address's timeout, and no thread waits. An ``AsyncGate``
/// lets one operation at a time use the connection; each operation is one transaction, retried whole when the server aborts it for a
/// serialization failure or a deadlock, and once more on a new connection when the connection is
/// lost.
///
/// No wait is without a deadline (``PostgresAddress/timeout``): connecting, waiting for the
/// lock and the whole transaction must end within it, else the connection is abandoned and the
/// operation fails with `the job store … did not answer within N s`; the server also cancels a
/// statement that runs longer (`statement_timeout`) and ends a connection idle in a transaction,
/// and on TCP probes a silent client (`tcp_keepalives_*`).
final class PostgresSession: @unchecked Sendable {
    // @unchecked Sendable is safe: `connection` is only touched while holding `gate`.
    let address: PostgresAddress
    private let gate = AsyncGate()
    private var connection: PostgresConnection?
    static let logger: Logger = {
        var logger = Logger(label: "lectern.postgres")
        logger.logLevel = .critical
        return logger
    }()

    /// Connects at once, so that a wrong address is reported when the store is opened.
    init(address: PostgresAddress) async throws {
        self.address = address
        connection = try await Self.connect(address)
    }

    deinit { Self.abandon(connection) }

    /// A new connection to `address`, within its deadline.
    ///
    /// - throws: ``StoreError`` `cannot connect to the job store postgres://…: <reason>`.
    static func connect(_ address: PostgresAddress) async throws -> PostgresConnection {
        try await connect(address, deadline: Date().addingTimeInterval(address.timeout))
    }

    static func connect(_ address: PostgresAddress, deadline: Date) async throws -> PostgresConnection {
        var configuration: PostgresConnection.Configuration
        if let socket = address.socketPath {
            configuration = .init(unixSocketPath: socket, username: address.user, password: address.password, database: address.database)
        } else {
            configuration = .init(host: address.host ?? "localhost", port: address.port, username: address.user,
                                  password: address.password, database: address.database, tls: .disable)
        }
        let milliseconds = String(Int((address.timeout * 1000).rounded(.up)))
        let keepalive = String(max(1, Int(address.timeout / 3)))
        configuration.options.additionalStartupParameters = [
            ("application_name", address.applicationName ?? "lectern"),
            ("statement_timeout", milliseconds), ("lock_timeout", milliseconds),
            ("idle_in_transaction_session_timeout", String(Int((address.timeout * 2000).rounded(.up)))),
            ("tcp_keepalives_idle", keepalive), ("tcp_keepalives_interval", keepalive), ("tcp_keepalives_count", "3"),
        ]
        // The deadline decides, not the socket's own timeout, which would fire at the same moment.
        configuration.options.connectTimeout = .milliseconds(Int64(max(1, deadline.timeIntervalSinceNow * 1000)) + 1000)
        let connecting: EventLoopFuture<PostgresConnection> = PostgresConnection.connect(
            on: PostgresConnection.defaultEventLoopGroup.any(), configuration: configuration, id: 1, logger: logger)
        do {
            return try await connecting.value(before: deadline)
        } catch let error where error is DeadlinePassed || Self.isConnectTimeout(error) {
            // Closed if it ever completes: nothing else holds it.
            connecting.whenSuccess { connection in PostgresSession.abandon(connection) }
            let place = address.socketPath.map { " (socket \($0))" } ?? ""
            throw StoreError("cannot connect to the job store \(address)\(place): it did not answer within \(PostgresAddress.seconds(address.timeout)) s (the address's timeout)")
        } catch {
            let place = address.socketPath.map { " (socket \($0))" } ?? ""
            throw StoreError("cannot connect to the job store \(address)\(place): \(reason(error))")
        }
    }

    /// Runs `body` in one transaction (`action` names it in errors: "read", "write", …), all of
    /// it within the address's timeout.
    func transaction<T: Sendable>(_ action: String, _ body: (PostgresTransaction) async throws -> T) async throws -> T {
        let deadline = Date().addingTimeInterval(address.timeout)
        let outcome = try await gate.holding(before: deadline) { try await attempt(action, deadline: deadline, body) }
        guard let outcome else { throw notAnswering(action, detail: "another operation of this process still waits for it") }
        return outcome
    }

    /// Runs `body` in a transaction, again after a serialisation conflict or (once) on a new
    /// connection when the old one was lost; the caller holds `gate`.
    private func attempt<T>(_ action: String, deadline: Date, _ body: (PostgresTransaction) async throws -> T) async throws -> T {
        var conflicts = 0
        var reconnected = false
        while true {
            do {
                let connection = try await connected(deadline: deadline)
                let transaction = PostgresTransaction(connection: connection, deadline: deadline)
                try await transaction.execute("BEGIN")
                do {
                    let result = try await body(transaction)
                    try await transaction.execute("COMMIT")
                    return result
                } catch is DeadlinePassed {
                    throw DeadlinePassed()
                } catch {
                    if !connection.isClosed {
                        _ = try? await connection.query("ROLLBACK", logger: Self.logger).value(before: deadline)
                    }
                    throw error
                }
            } catch is DeadlinePassed {
                // The server may still be working on it, or never answer: this connection is done.
                Self.abandon(connection)
                connection = nil
                throw notAnswering(action)
            } catch let error as PSQLError where Self.isConflict(error) && conflicts < 20 {
                conflicts += 1
                try await Task.sleep(for: .microseconds(Int.random(in: 1_000...(5_000 * conflicts))))
            } catch where Self.isLostConnection(error, connection) && !reconnected {
                reconnected = true
                Self.abandon(connection)
                connection = nil
            } catch let error as StoreError {
                throw error
            } catch let error as CancellationError {
                throw error
            } catch {
                if Self.isLostConnection(error, connection) { Self.abandon(connection); connection = nil }
                throw StoreError("cannot \(action) the job store \(address): \(Self.reason(error))")
            }
        }
    }

    private func notAnswering(_ action: String, detail: String? = nil) -> StoreError {
        StoreError("cannot \(action) the job store \(address): it did not answer within \(PostgresAddress.seconds(address.timeout)) s "
                   + "(the address's timeout)" + (detail.map { "; \($0)" } ?? ""))
    }

    private func connected(deadline: Date) async throws -> PostgresConnection {
        if let connection, !connection.isClosed { return connection }
        let fresh = try await Self.connect(address, deadline: deadline)
        connection = fresh
        return fresh
    }

    /// Closes a lost connection without waiting: closing one that neither answers nor fails need
    /// never complete, and the caller holds the session's lock.
    static func abandon(_ connection: PostgresConnection?) {
        guard let connection else { return }
        let closing: EventLoopFuture<Void> = connection.close()
        // Kept until the close completes: postgres-nio requires a connection closed before it goes.
        closing.whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    /// Closes the connection (a later operation opens a new one), without waiting for the close
    /// to complete: a server that does not answer cannot hold the caller.
    func close() async {
        await gate.holding {
            Self.abandon(connection)
            connection = nil
        }
    }

    /// A serialization failure or a deadlock: the server aborted the transaction, and running it
    /// again succeeds.
    /// Whether `error` is the socket's connect timeout (which a deadline reports as its own).
    static func isConnectTimeout(_ error: Error) -> Bool {
        if let error = error as? PSQLError, let underlying = error.underlying { return isConnectTimeout(underlying) }
        if let error = error as? ChannelError, case .connectTimeout = error { return true }
        return false
    }

    static func isConflict(_ error: PSQLError) -> Bool {
        ["40001", "40P01"].contains(error.serverInfo?[.sqlState] ?? "")
    }

    static func isLostConnection(_ error: Error, _ connection: PostgresConnection?) -> Bool {
        if let error = error as? PSQLError,
           [.serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown].contains(error.code) {
            return true
        }
        if error is ChannelError || error is IOError { return true }
        if let error = error as? PSQLError, error.serverInfo?[.sqlState]?.hasPrefix("57P") == true { return true }  // admin shutdown
        return connection?.isClosed ?? false
    }

    /// The server's words for a failure, or the system's for a connection that failed.
    static func reason(_ error: Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                let detail = error.serverInfo?[.detail].map { " (\($0))" } ?? ""
                return message + detail
            }
            if let underlying = error.underlying { return reason(underlying) }
            switch error.code {
            case .serverClosedConnection: return "the server closed the connection"
            case .clientClosedConnection: return "the connection was closed"
            case .authMechanismRequiresPassword: return "the server asks for a password and the address gives none"
            case .unsupportedAuthMechanism: return "the server asks for an authentication method Lectern does not support"
            default: return "\(error.code)"
            }
        }
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        if let error = error as? NIOConnectionError {
            if let first = error.connectionErrors.first { return reason(first.error) }
            if let dns = error.dnsAAAAError ?? error.dnsAError { return "cannot resolve the host \(error.host): \(dns)" }
            return "cannot reach \(error.host):\(error.port)"
        }
        if let error = error as? ChannelError, case .connectTimeout = error { return "the connection timed out" }
        if let error = error as? PostgresDecodingError { return "unexpected data in column \(error.columnName) (\(error.code))" }
        return "\(error)"
    }
}
