import Foundation

/// Which job store to use, as a user gives it with `--store`, `$LECTERN_STORE` or `store:` in
/// the configuration: `sqlite:PATH` or a plain path (an embedded SQLite file, the default), or a
/// `postgres://…` URL (a PostgreSQL database shared by every host that names it).
public enum StoreAddress: Sendable, Equatable, CustomStringConvertible {
    case sqlite(URL)
    case postgres(PostgresAddress)

    /// Parses a store address.
    ///
    /// - throws: ``StoreError`` naming the text when it is neither a path, `sqlite:PATH` nor a
    ///   `postgres://` URL.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let lower = trimmed.lowercased()
        if lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://") {
            self = .postgres(try PostgresAddress(parsing: trimmed))
            return
        }
        var path = trimmed
        if lower.hasPrefix("sqlite:") {
            path = String(trimmed.dropFirst("sqlite:".count))
            if path.hasPrefix("//") { path = String(path.dropFirst(2)) }  // sqlite:///abs/path
        } else if let scheme = Self.scheme(of: trimmed) {
            throw StoreError("not a store address: \(PostgresAddress.withoutPassword(trimmed)) (the scheme \(scheme): is not one Lectern knows; give sqlite:PATH, a file path, or postgres://[user@][host][:port]/dbname)")
        }
        guard !path.isEmpty else {
            throw StoreError("not a store address: \"\(text)\" (it names no file; give sqlite:PATH, a file path, or postgres://[user@][host][:port]/dbname)")
        }
        self = .sqlite(URL(fileURLWithPath: path))
    }

    /// The scheme of a text that starts like a URL (`name:`), if it does.
    static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = text[..<colon]
        guard let first = name.first, first.isLetter, first.isASCII,
              name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) }) else { return nil }
        return String(name)
    }

    /// The address as messages show it: the SQLite file's path, or the PostgreSQL URL without
    /// its password.
    public var description: String {
        switch self {
        case .sqlite(let url): return url.path
        case .postgres(let address): return address.description
        }
    }

    /// Opens the store, migrating it to the current schema.
    ///
    /// - parameters:
    ///     - localFolder: This host's folder for what is never shared (the local chunk cache,
    ///       failure notes); a SQLite store keeps them beside its file instead.
    ///     - postgres: Opens a PostgreSQL store — `LecternPostgres` gives it, in a build with the
    ///       `PostgreSQL` trait; nil in a single-host build.
    /// - throws: ``StoreError`` when the store cannot be opened, reached or migrated, or is a
    ///   PostgreSQL store and this build has none.
    public func open(localFolder: URL, postgres: ((PostgresAddress, URL) async throws -> any JobStore)?) async throws -> any JobStore {
        switch self {
        case .sqlite(let url): return try SQLiteJobStore(url: url)
        case .postgres(let address):
            guard let postgres else {
                throw StoreError("this lectern was built without the PostgreSQL store, so it cannot open \(address): "
                                 + "build it with `make release-postgres` (or `swift build --traits PostgreSQL`)")
            }
            return try await postgres(address, localFolder)
        }
    }
}
