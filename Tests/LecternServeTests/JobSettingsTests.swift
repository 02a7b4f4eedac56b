import Foundation
import Testing
@testable import LecternServe

/// A job's `settings`: the voice and speed of its manifest as the manifest loader reads them,
/// which the dashboard's form shows (instead of reading the YAML itself).
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
}
