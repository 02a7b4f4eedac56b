import Foundation
import Hummingbird
import HTTPTypes

/// An error `lectern serve` answers a request with: a status and a message a user can act on,
/// naming the field of the request it is about, sent as JSON —
/// `{"error": {"status": 400, "message": "…", "field": "manifest"}}`.
public struct ServeError: Error, HTTPResponseError, CustomStringConvertible {
    public let status: HTTPResponse.Status
    public let message: String
    /// The request's field the error is about: a form part, a JSON key, a manifest key, a header.
    public let field: String?
    /// Extra headers (`Retry-After`, `Content-Range`, `WWW-Authenticate`).
    var headers: HTTPFields = [:]

    public init(_ status: HTTPResponse.Status, _ message: String, field: String? = nil) {
        self.status = status
        self.message = message
        self.field = field
    }

    public var description: String { field.map { "\(message) (\($0))" } ?? message }

    static func badRequest(_ message: String, field: String? = nil) -> ServeError { ServeError(.badRequest, message, field: field) }
    static func notFound(_ what: String) -> ServeError { ServeError(.notFound, "\(what) not found") }
    static func conflict(_ message: String) -> ServeError { ServeError(.conflict, message) }

    static let insufficientStorage = HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try JSONBody.response(ErrorBody(error: .init(status: status.code, message: message, field: field)), status: status)
        for field in headers { response.headers.append(field) }
        return response
    }
}

/// The JSON of a ``ServeError``.
struct ErrorBody: Encodable {
    struct Detail: Encodable {
        let status: Int
        let message: String
        let field: String?
    }
    let error: Detail
}
