import Foundation
import LecternCore
import LecternStore
import PostgresNIO

/// The statements of one transaction on a ``PostgresSession``'s connection, each waited for
/// until the transaction's deadline at most.
package struct PostgresTransaction {
    let connection: PostgresConnection
    let deadline: Date

    /// Runs a statement; returns the rows it returned.
    @discardableResult
    func execute(_ query: PostgresQuery) async throws -> [PostgresRandomAccessRow] {
        try await connection.query(query, logger: PostgresSession.logger).value(before: deadline).rows.map { $0.makeRandomAccess() }
    }

    /// Runs a statement; returns how many rows it changed.
    func changes(_ query: PostgresQuery) async throws -> Int {
        try await connection.query(query, logger: PostgresSession.logger).value(before: deadline).metadata.rows ?? 0
    }

    /// The one row a statement returns.
    func one(_ query: PostgresQuery) async throws -> PostgresRandomAccessRow {
        guard let row = try await execute(query).first else { throw StoreError("the job store returned no row where one was expected") }
        return row
    }

    /// Inserts `rows` into `table`, many per statement; `bind` appends one row's values in the
    /// order of `columns`. `suffix` follows each statement (`ON CONFLICT …`).
    func insert<Row>(into table: String, columns: [String], rows: [Row], suffix: String = "",
                     bind: (Row, inout PostgresBindings) throws -> Void) async throws {
        let perStatement = 30_000 / columns.count  // the protocol allows 65,535 parameters
        let names = columns.map { "\"\($0)\"" }.joined(separator: ", ")
        for start in stride(from: 0, to: rows.count, by: perStatement) {
            let batch = rows[start..<min(rows.count, start + perStatement)]
            var binds = PostgresBindings(capacity: batch.count * columns.count)
            var values: [String] = []
            for row in batch {
                let first = binds.count
                try bind(row, &binds)
                precondition(binds.count - first == columns.count, "a row of \(table) binds \(binds.count - first) values for \(columns.count) columns")
                values.append("(" + (first + 1...first + columns.count).map { "$\($0)" }.joined(separator: ", ") + ")")
            }
            try await execute(PostgresQuery(unsafeSQL: "INSERT INTO \"\(table)\" (\(names)) VALUES \(values.joined(separator: ", "))\(suffix)",
                                      binds: binds))
        }
    }

    /// Wakes the processes waiting on the queue (``PostgresQueueListener``) when the transaction commits.
    func notifyQueue(runId: Int64) async throws {
        try await execute("SELECT pg_notify('lectern_queue', \(String(runId)))")
    }

    /// The first column of the first row, if any.
    func value<T: PostgresDecodable>(_ query: PostgresQuery, as type: T.Type = T.self) async throws -> T? {
        guard let row = try await execute(query).first, row[0].bytes != nil else { return nil }
        return try row[0].decode(T.self)
    }
}
