import Foundation
import Hummingbird
import HTTPTypes

/// JSON in and out of `lectern serve`: dates as ISO 8601, keys sorted (stable bytes), and a
/// request body that is not JSON of the expected shape refused with 400 naming the field.
///
/// It is ``ServeContext``'s `ResponseEncoder` and `RequestDecoder`, so a route returns its
/// ``API`` value (`ResponseEncodable`) and reads its body with `request.decode(as:context:)`;
/// ``response(_:status:headers:)`` is for an answer with another status or headers of its own.
public struct JSONBody: ResponseEncoder, RequestDecoder {
    public init() {}

    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        try Self.response(value)
    }

    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        try await Self.decode(type, from: request)
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    static func response<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        let data = try encoder.encode(value)
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = "no-store"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The request's JSON body (at most `limit` bytes) as `T`.
    ///
    /// - throws: ``ServeError`` 400 naming the key that is missing or has the wrong type, or
    ///   where the JSON is malformed; 413 over the limit; 415 when it is not JSON.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int = 64 << 10) async throws -> T {
        if let contentType = request.headers[.contentType], !contentType.lowercased().hasPrefix("application/json") {
            throw ServeError(.unsupportedMediaType, "the body must be JSON (Content-Type: application/json), not \(contentType)",
                             field: "Content-Type")
        }
        var request = request
        let buffer: ByteBuffer
        do { buffer = try await request.collectBody(upTo: limit) } catch {
            throw ServeError(.contentTooLarge, "the JSON body is larger than \(limit) bytes", field: "body")
        }
        let data = Data(buffer.readableBytesView)
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw ServeError.badRequest("the JSON body lacks the key \(path(context.codingPath + [key]))", field: path(context.codingPath + [key]))
        } catch let DecodingError.typeMismatch(type, context) {
            throw ServeError.badRequest("\(path(context.codingPath)) must be \(describe(type))", field: path(context.codingPath))
        } catch let DecodingError.valueNotFound(type, context) {
            throw ServeError.badRequest("\(path(context.codingPath)) must be \(describe(type)), not null", field: path(context.codingPath))
        } catch let DecodingError.dataCorrupted(context) {
            let field = context.codingPath.isEmpty ? "body" : path(context.codingPath)
            let reason = context.codingPath.isEmpty ? "the body is not valid JSON" : "\(field) is not valid: \(context.debugDescription)"
            throw ServeError.badRequest(reason, field: field)
        } catch let error as ServeError {
            throw error
        } catch {
            throw ServeError.badRequest("the body is not valid JSON: \(error)", field: "body")
        }
    }

    static func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty ? "body" : keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            .replacingOccurrences(of: ".[", with: "[")
    }

    static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Double.Type, is Float.Type: return "a number"
        case is Int.Type, is Int64.Type: return "an integer"
        case is Bool.Type: return "true or false"
        default: return "\(type)".lowercased().contains("array") ? "a list" : "an object"
        }
    }
}
