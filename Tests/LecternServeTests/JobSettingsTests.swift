import Foundation
import Testing
@testable import LecternServe

/// A job's settings, in process: as the answer shows them (the voice and speed of its manifest
/// as the manifest loader reads them, which the dashboard's form shows instead of reading the
/// YAML itself), and as a form or `PATCH` may change them.
@Suite struct JobSettingsTests {
    static let book = "CHAPTER 1\nThe Lamp\n\nThe lamp was lit at dusk, and the street grew quiet.\n"

    @Test func aJobShowsItsManifestsVoiceAndSpeed() async throws {
        try await InProcessService("settings").test { client in
            let given = try await client.createJob(document: Self.book, fields: [("voice", "en"), ("rate", "0.6")])
            try #require(given.status == 201, "\(given.text)")
            let settings = try #require(given.object["settings"] as? [String: Any], "\(given.text)")
            #expect(settings["voice"] as? String == "en" && settings["rate"] as? Double == 0.6, "\(settings)")

            let id = try #require(given.object["id"] as? Int)
            let patched = try await client.send("/api/v1/jobs/\(id)", .patch, headers: [.contentType: "application/json"], body: #"{"rate": 0.55}"#)
            #expect((patched.object["settings"] as? [String: Any])?["rate"] as? Double == 0.55, "\(patched.text)")

            // No voice in the manifest: none shown (the book's language chooses), and the defaults' speed.
            let plain = try await client.createJob(document: Self.book, fields: [("title", "Plain")])
            try #require(plain.status == 201, "\(plain.text)")
            let defaults = try #require(plain.object["settings"] as? [String: Any], "\(plain.text)")
            #expect(defaults["voice"] == nil && defaults["rate"] as? Double == 0.5, "\(defaults)")
        }
    }

    /// Moved in process from the end-to-end `ServeAccessTests`.
    @Test func aVoiceMustBeInstalledAndTextsHoldNoControlCharacters() async throws {
        try await InProcessService("settings-checks").test { client in
            let unknown = try await client.createJob(document: Self.book, fields: [("voice", "nosuchvoice")])
            #expect(unknown.status == 400 && unknown.errorField == "voice", "\(unknown.text)")
            let created = try await client.createJob(document: Self.book, fields: [("voice", "en-gb")])
            try #require(created.status == 201, "\(created.text)")
            let id = try #require(created.object["id"] as? Int)
            let manifestBefore = created.object["manifest"] as? String
            for (body, field) in [(#"{"voice": "nosuchvoice"}"#, "voice"), (#"{"title": "a\u0000b"}"#, "title"), (#"{"author": "x\u0007"}"#, "author")] {
                let answer = try await client.send("/api/v1/jobs/\(id)", .patch, headers: [.contentType: "application/json"], body: body)
                #expect(answer.status == 400 && answer.errorField == field, "\(body): \(answer.text)")
            }
            #expect(try await client.send("/api/v1/jobs/\(id)").object["manifest"] as? String == manifestBefore)
            let changed = try await client.send("/api/v1/jobs/\(id)", .patch, headers: [.contentType: "application/json"],
                                                body: #"{"voice": "en-us", "rate": 0.7}"#)
            #expect(changed.status == 200, "\(changed.text)")
            #expect((changed.object["manifest"] as? String)?.contains("en-us") == true)
        }
    }
}
