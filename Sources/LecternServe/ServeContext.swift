import Foundation
import Hummingbird
import LecternStore
import NIOCore

/// The request context of `lectern serve`: who is calling (set by ``TokenAuthenticator``) and
/// from where (for rate limits).
public struct ServeContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The token's owner, once authenticated.
    public var caller: Caller?
    /// The peer's address without its port.
    public let peer: String

    /// JSON as the API writes and reads it (``JSONBody``).
    public var requestDecoder: JSONBody { JSONBody() }
    public var responseEncoder: JSONBody { JSONBody() }

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }

    /// The caller; 401 when the request carries no valid token.
    func requireCaller() throws -> Caller {
        // With WWW-Authenticate and the field, as every 401 (RFC 9110 §15.5.2).
        guard let caller else { throw TokenAuthenticator.unauthorized("this needs an API token: Authorization: Bearer TOKEN") }
        return caller
    }
}

/// Who a request comes from: the owner a token names, and whether it is an admin's.
public struct Caller: Sendable, Equatable {
    public var owner: String
    public var admin: Bool
    public var tokenName: String

    /// Whether the caller may see and change a job of `owner`.
    func mayAccess(owner jobOwner: String) -> Bool { admin || owner == jobOwner }
}
