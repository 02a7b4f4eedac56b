import Foundation
import Hummingbird
import HTTPTypes
import LecternStore

/// Finds who calls: `Authorization: Bearer TOKEN`, or the dashboard's session cookie (the same
/// token, HttpOnly and SameSite=Strict). A request with a cookie that changes something must also
/// carry `X-Lectern-Request: 1`, which a page of another site cannot add without CORS (which the
/// service never grants): so no other site can act with a signed-in browser's cookie.
///
/// A known token is remembered for two seconds, so load on a status endpoint does not become load
/// on the store; a revoked token stops working within that time.
struct TokenAuthenticator: RouterMiddleware {
    typealias Context = ServeContext
    static let cookieName = "lectern_session"
    static let csrfHeader = HTTPField.Name("X-Lectern-Request")!

    let store: any JobStore
    let cache = TokenCache()

    func handle(_ request: Request, context: ServeContext, next: (Request, ServeContext) async throws -> Response) async throws -> Response {
        var context = context
        var secret: String?
        var byCookie = false
        if let header = request.headers[.authorization] {
            let parts = header.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else {
                throw Self.unauthorized("the Authorization header must be `Bearer TOKEN`")
            }
            secret = String(parts[1]).trimmingCharacters(in: .whitespaces)
        } else if let cookie = request.cookies[Self.cookieName]?.value, !cookie.isEmpty {
            secret = cookie
            byCookie = true
        }
        if let secret {
            guard APIToken.looksValid(secret), let token = try await lookUp(secret) else {
                // A cookie of a revoked token is as no cookie: routes that need a caller answer
                // 401 themselves, and signing in again or out (`/api/v1/session`) still works.
                if byCookie { return try await next(request, context) }
                throw Self.unauthorized("the API token is not valid (revoked, or mistyped)")
            }
            if byCookie, ![.get, .head].contains(request.method), request.headers[Self.csrfHeader] != "1" {
                throw ServeError(.forbidden, "a request signed in by cookie that changes something needs the header X-Lectern-Request: 1",
                                 field: "X-Lectern-Request")
            }
            context.caller = Caller(owner: token.owner, admin: token.admin, tokenName: token.name)
        }
        return try await next(request, context)
    }

    private func lookUp(_ secret: String) async throws -> APITokenRecord? {
        let hash = APIToken.hash(secret)
        if let cached = cache.token(hash: hash) { return cached }
        let token = try await store.token(hash: hash)
        if let token { cache.remember(token) }
        return token
    }

    static func unauthorized(_ message: String) -> ServeError {
        var error = ServeError(.unauthorized, message, field: "Authorization")
        error.headers[.wwwAuthenticate] = "Bearer realm=\"lectern\""
        return error
    }
}

/// Tokens found in the store in the last two seconds.
final class TokenCache: @unchecked Sendable {
    // @unchecked Sendable is safe: `entries` is only touched while holding `lock`.
    private let lock = NSLock()
    private var entries: [String: (token: APITokenRecord, at: Date)] = [:]
    static let lifetime: TimeInterval = 2

    func token(hash: String) -> APITokenRecord? {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = entries[hash], Date().timeIntervalSince(entry.at) < Self.lifetime else { return nil }
        return entry.token
    }

    func remember(_ token: APITokenRecord) {
        lock.lock()
        defer { lock.unlock() }
        if entries.count > 1000 { entries.removeAll() }
        entries[token.hash] = (token, Date())
    }
}
