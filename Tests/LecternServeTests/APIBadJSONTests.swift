import Foundation
import HTTPTypes
import Testing
@testable import LecternServe

/// Malformed JSON requests and the dashboard's session cookie, in process: each refusal is 400
/// (or 401/403/415) with a JSON error whose `field` names what is wrong and whose message says
/// why, and none of them changes anything. (Moved in process from the end-to-end
/// `APIBadInputTests`, which keeps the multipart forms over a real socket.)
@Suite struct APIBadJSONTests {
    /// A request and what its refusal must say.
    struct Case: Sendable {
        let what: String
        var method = HTTPRequest.Method.get
        var headers: HTTPFields = [:]
        var body: String?
        let status: Int
        let field: String
        /// Words the message must hold.
        let message: String
    }

    static let book = "CHAPTER 1\nThe Lamp\n\nThe lamp was lit at dusk, and the street grew quiet.\n"

    /// Sends each case to `path` (with `alice`'s token, or `token`) and checks its refusal.
    static func expect(_ client: InProcessService.Client, _ path: String, token: String? = nil, _ cases: [Case]) async throws {
        for c in cases {
            let answer = try await client.send(path, c.method, headers: c.headers, body: c.body, token: token)
            #expect(answer.status == c.status, "\(c.what): \(answer.status) \(answer.text)")
            #expect(answer.headers[.contentType]?.hasPrefix("application/json") == true, "\(c.what): \(answer.headers)")
            #expect(answer.headers[.init("X-Content-Type-Options")!] == "nosniff", "\(c.what): \(answer.headers)")
            #expect(answer.errorField == c.field, "\(c.what): field \(answer.errorField ?? "none"), not \(c.field): \(answer.text)")
            let message = answer.errorMessage ?? ""
            #expect(message.localizedCaseInsensitiveContains(c.message), "\(c.what): «\(message)» does not say \(c.message)")
        }
    }

    @Test func malformedJSONChangesNothing() async throws {
        try await InProcessService("bad-json").test { client in
            let created = try await client.createJob(document: Self.book, fields: [("title", "The Lamp"), ("rate", "0.5")])
            try #require(created.status == 201, "\(created.text)")
            let id = try #require(created.object["id"] as? Int)
            let before = created.object["manifest"] as? String
            func bad(_ what: String, _ body: String, type: String = "application/json", status: Int = 400, field: String, message: String) -> Case {
                Case(what: what, method: .patch, headers: [.contentType: type], body: body, status: status, field: field, message: message)
            }
            try await Self.expect(client, "/api/v1/jobs/\(id)", [
                bad("not JSON", "{", field: "body", message: "not valid JSON"),
                bad("a rate that is a word", #"{"rate": "fast"}"#, field: "rate", message: "rate must be a number"),
                bad("a rate out of range", #"{"rate": 7}"#, field: "rate", message: "from 0 to 1"),
                bad("a pitch out of range", #"{"pitch": 0}"#, field: "pitch", message: "from 0.5 to 2"),
                bad("an unknown key", #"{"rat": 0.5}"#, field: "rat", message: "the key \"rat\" is not one of title"),
                bad("an empty key", #"{"": null}"#, field: "body", message: "the key \"\" is not one of title"),
                bad("a title that is a list", #"{"title": ["a"]}"#, field: "title", message: "a string"),
                bad("not a JSON body", "rate=7", type: "application/x-www-form-urlencoded", status: 415, field: "Content-Type", message: "must be JSON"),
            ])
            try await Self.expect(client, "/api/v1/jobs/x", [
                Case(what: "an id that is not a number", status: 400, field: "id", message: "positive integer"),
            ])
            try await Self.expect(client, "/api/v1/session", [
                Case(what: "no token", method: .post, headers: [.contentType: "application/json"], body: "{}", status: 400, field: "token", message: "token"),
            ])
            let after = try await client.send("/api/v1/jobs/\(id)").object["manifest"] as? String
            #expect(after == before, "the manifest changed:\n\(after ?? "")")
            #expect(try await client.send("/api/v1/jobs").array?.count == 1)
        }
    }

    /// The dashboard's cookie: a request it signs that changes something needs
    /// `X-Lectern-Request: 1`; the cookie of a revoked (or made-up) token is as none, so the
    /// browser can still sign in again and out.
    @Test func sessionCookieNeedsTheRequestHeaderAndAStaleOneDoesNotLockOut() async throws {
        let service = try await InProcessService("session")
        let token = service.token
        try await service.test { client in
            let json: HTTPFields = [.contentType: "application/json"]
            let signedIn = try await client.send("/api/v1/session", .post, headers: json, body: #"{"token": "\#(token)"}"#, token: "")
            #expect(signedIn.status == 200 && signedIn.headers[.setCookie]?.contains("HttpOnly") == true, "\(signedIn.status) \(signedIn.headers)")
            let cookie: HTTPFields = [.cookie: "lectern_session=\(token)"]
            try await Self.expect(client, "/api/v1/jobs", token: "", [
                Case(what: "a form by cookie without the header", method: .post,
                     headers: cookie + [.contentType: "multipart/form-data; boundary=LecternBoundary"],
                     body: "--LecternBoundary\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nThe Lamp\r\n--LecternBoundary--\r\n",
                     status: 403, field: "X-Lectern-Request", message: "X-Lectern-Request: 1"),
            ])
            #expect(try await client.send("/api/v1/jobs", headers: cookie, token: "").array?.isEmpty == true)
            let made = try await client.createJob(document: Self.book, fields: [("title", "The Lamp")],
                                                  headers: cookie + [.init("X-Lectern-Request")!: "1"], token: "")
            #expect(made.status == 201, "\(made.text)")

            let stale: HTTPFields = [.cookie: "lectern_session=lct_" + String(repeating: "A", count: 43)]
            let me = try await client.send("/api/v1/me", headers: stale, token: "")
            #expect(me.status == 401 && me.headers[.wwwAuthenticate] == "Bearer realm=\"lectern\"", "\(me.status) \(me.headers)")
            let again = try await client.send("/api/v1/session", .post, headers: stale + json, body: #"{"token": "\#(token)"}"#, token: "")
            #expect(again.status == 200, "\(again.text)")
            let out = try await client.send("/api/v1/session", .delete, headers: stale, token: "")
            #expect(out.status == 204 && out.headers[.setCookie]?.contains("Max-Age=0") == true, "\(out.status) \(out.headers)")
        }
    }
}

extension HTTPFields {
    static func + (lhs: HTTPFields, rhs: HTTPFields) -> HTTPFields {
        var all = lhs
        all.append(contentsOf: rhs)
        return all
    }
}
