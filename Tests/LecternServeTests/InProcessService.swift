import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LecternStore
import Logging
@testable import LecternServe

/// A ``LecternService`` in the test's own process: its data folder and SQLite store in a
/// temporary folder, an API token for `alice`, and its routes answered through Hummingbird's
/// router test framework (`app.test(.router)`: no socket, no `lectern serve` process).
struct InProcessService {
    let folder: URL
    let service: LecternService
    /// The token of `alice`.
    let token: String

    init(_ name: String) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try SQLiteJobStore(url: folder.appendingPathComponent("jobs.sqlite"))
        token = try await APIToken.create(name: "alice-\(name)", owner: "alice", admin: false, in: store)
        service = LecternService(store: store, options: .init(dataFolder: folder.appendingPathComponent("data")),
                                 logger: Logger(label: "lectern-serve-test"))
        try service.folders.create()
    }

    /// Runs `test` with a client of the service's routes, then removes the temporary folder.
    func test<Value: Sendable>(_ test: @Sendable (Client) async throws -> Value) async throws -> Value {
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await Application(router: service.router()).test(.router) { client in
            try await test(Client(client: client, token: token))
        }
    }

    /// Sends requests to the service, with `alice`'s token unless told otherwise.
    struct Client: Sendable {
        let client: any TestClientProtocol
        let token: String

        /// The answer to `method` `uri` with `headers` and `body`; `token` nil sends `alice`'s, `""` none.
        func send(_ uri: String, _ method: HTTPRequest.Method = .get, headers: HTTPFields = [:], body: String? = nil,
                  token: String? = nil) async throws -> Answer {
            var fields = headers
            let token = token ?? self.token
            if !token.isEmpty { fields[.authorization] = "Bearer \(token)" }
            let response = try await client.execute(uri: uri, method: method, headers: fields, body: body.map { ByteBuffer(string: $0) })
            return Answer(status: response.status.code, headers: response.headers, body: Data(response.body.readableBytesView))
        }

        /// A new job from a multipart form of `fields` (name, value) and the document `book.txt`.
        func createJob(document: String, fields: [(String, String)] = [], headers: HTTPFields = [:], token: String? = nil) async throws -> Answer {
            var parts = ["Content-Disposition: form-data; name=\"document\"; filename=\"book.txt\"\r\nContent-Type: text/plain\r\n\r\n\(document)"]
            parts += fields.map { "Content-Disposition: form-data; name=\"\($0.0)\"\r\n\r\n\($0.1)" }
            var all = headers
            all[.contentType] = "multipart/form-data; boundary=LecternBoundary"
            return try await send("/api/v1/jobs", .post, headers: all,
                                  body: parts.map { "--LecternBoundary\r\n\($0)\r\n" }.joined() + "--LecternBoundary--\r\n", token: token)
        }
    }

    /// An HTTP answer: status, headers and body.
    struct Answer: Sendable {
        let status: Int
        let headers: HTTPFields
        let body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        var object: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var array: [Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [Any] }
        /// The error's `field` and `message`, for a JSON error answer.
        var errorField: String? { (object["error"] as? [String: Any])?["field"] as? String }
        var errorMessage: String? { (object["error"] as? [String: Any])?["message"] as? String }
    }
}
