import Foundation

/// Where a PostgreSQL job store is: `postgres://[user[:password]@][host][:port]/dbname`, with
/// `?host=/socket/folder` for a Unix socket (as libpq reads it), `application_name=…` and
/// `timeout=SECONDS` (each operation's deadline, default 30). Its ``description`` leaves the
/// password out.
public struct PostgresAddress: Sendable, Equatable, CustomStringConvertible {
    public var user: String
    public var password: String?
    /// A TCP host, or nil with ``socketFolder`` set.
    public var host: String?
    public var port: Int
    public var database: String
    /// The folder holding the server's socket `.s.PGSQL.PORT` (libpq's `host=/folder`).
    public var socketFolder: String?
    public var applicationName: String?
    /// The deadline of each operation on the store, in seconds: connecting, and each transaction
    /// (the server's `statement_timeout` too). A server that does not answer within it — stopped,
    /// overloaded, or behind a partitioned network — is reported as such, naming the store.
    public var timeout: TimeInterval = PostgresAddress.defaultTimeout

    public static let defaultTimeout: TimeInterval = 30

    /// The socket folder libpq uses when an address names no host.
    public static let defaultSocketFolder = "/var/run/postgresql"

    /// Parses a `postgres://` or `postgresql://` URL.
    ///
    /// - throws: ``StoreError`` naming the text (without its password) and what is wrong with it.
    public init(parsing text: String) throws {
        let shown = Self.withoutPassword(text)
        func bad(_ why: String) -> StoreError {
            StoreError("not a PostgreSQL address: \(shown) (\(why); expected postgres://[user[:password]@][host][:port]/dbname[?host=/socket/folder])")
        }
        guard let parts = URLComponents(string: text), let scheme = parts.scheme?.lowercased(),
              scheme == "postgres" || scheme == "postgresql" else { throw bad("cannot read it as a URL") }
        user = parts.user.flatMap { $0.isEmpty ? nil : $0 } ?? Self.systemUser()
        password = parts.password
        port = parts.port ?? 5432
        guard (1...65535).contains(port) else { throw bad("the port \(port) is out of range") }
        let name = parts.path.hasPrefix("/") ? String(parts.path.dropFirst()) : parts.path
        guard !name.isEmpty, !name.contains("/") else { throw bad("it names no database") }
        database = name
        // A host percent-encoded as a path (`%2Fsocket%2Ffolder`) is a socket folder, as in libpq.
        let givenHost = parts.host.flatMap { $0.isEmpty ? nil : $0.removingPercentEncoding ?? $0 }
        if let givenHost, givenHost.hasPrefix("/") { socketFolder = givenHost; host = nil } else { host = givenHost }
        for item in parts.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name {
            case "host":
                if value.hasPrefix("/") { socketFolder = value; host = nil } else if !value.isEmpty { host = value; socketFolder = nil }
            case "port":
                guard let p = Int(value), (1...65535).contains(p) else { throw bad("the port \(value) is not a port number") }
                port = p
            case "application_name": applicationName = value
            case "timeout":
                guard let t = Double(value), t >= 0.1, t <= 86_400 else { throw bad("timeout=\(value) is not a number of seconds from 0.1 to 86400") }
                timeout = t
            case "user": user = value
            case "dbname": database = value
            case "sslmode":
                guard value == "disable" else { throw bad("sslmode=\(value) is not supported: Lectern connects without TLS (sslmode=disable)") }
            default: throw bad("the parameter \(item.name) is not supported")
            }
        }
        if host == nil, socketFolder == nil { socketFolder = Self.defaultSocketFolder }
    }

    /// The socket file for a Unix-socket address.
    public var socketPath: String? { socketFolder.map { "\($0)/.s.PGSQL.\(port)" } }

    public var description: String {
        var text = "postgres://\(Self.encode(user))@\(host ?? "")"
        if host != nil, port != 5432 { text += ":\(port)" }
        text += "/\(Self.encode(database))"
        var query: [String] = []
        if let socketFolder { query.append("host=\(socketFolder)") }
        if socketFolder != nil, port != 5432 { query.append("port=\(port)") }
        if let applicationName { query.append("application_name=\(Self.encode(applicationName))") }
        if timeout != Self.defaultTimeout { query.append("timeout=\(Self.seconds(timeout))") }
        return query.isEmpty ? text : text + "?" + query.joined(separator: "&")
    }

    /// Seconds as written in an address: `5`, `0.5`.
    public static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// `text` with the password of its user part (`user:password@`) left out, for messages.
    static func withoutPassword(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@"),
              let colon = rest[..<at].firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + String(rest[at...])
    }

    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed.subtracting(CharacterSet(charactersIn: ":@/?&="))) ?? text
    }

    /// The user libpq connects as when none is given: the system user's name.
    static func systemUser() -> String {
        if let pw = getpwuid(geteuid()), let name = pw.pointee.pw_name { return String(cString: name) }
        return ProcessInfo.processInfo.environment["USER"] ?? "postgres"
    }
}
