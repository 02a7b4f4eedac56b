import Foundation
import Hummingbird
import LecternStore

/// The resources of the HTTP API as JSON (docs/openapi.yaml describes each); a route returns
/// one, and ``ServeContext``'s encoder (``JSONBody``) writes it.
enum API {
    struct Job: Codable, Sendable, ResponseEncodable {
        var id: Int64
        var name: String
        var title: String?
        var owner: String
        var createdAt: Date
        /// The uploaded files of the job's `input/` folder, by name.
        var files: [String]
        /// The manifest as the service stores it.
        var manifest: String
        /// Why the manifest cannot be used, when it cannot.
        var manifestError: String?
        /// The voice and speed the manifest gives, as its loader reads them (absent when it cannot be loaded).
        var settings: FormSettings?
        var latestRun: Run?
        /// A run waits for a free slot of this `serve` process.
        var queued: Bool
        var outputs: [Output]
        /// The podcast feed's secret address (relative to the service).
        var feed: String
    }

    struct Run: Codable, Sendable, ResponseEncodable {
        var id: Int64
        var jobId: Int64
        var state: String
        var trigger: String
        var startedAt: Date
        var endedAt: Date?
        var error: String?
        var wordsDone: Int
        var wordCount: Int?
        var audioMsDone: Int
        var durationMs: Int?
        var chunkCount: Int?
        var chunksRendered: Int
        var chunksReused: Int
        /// Done, from 0 to 1 (by words).
        var fraction: Double
        /// Seconds left, estimated from the speed so far (absent until it can be estimated).
        var etaSeconds: Double?

        /// The run as the API shows it, its error without the server's folders.
        init(_ r: RunRecord, hiding: PathHiding, now: Date = Date()) {
            id = r.id ?? 0
            jobId = r.jobId
            // A run whose process died is shown as it is, before the store is told.
            state = r.isOrphaned ? RunState.interrupted.rawValue : r.state.rawValue
            trigger = r.trigger.rawValue
            startedAt = r.startedAt
            endedAt = r.endedAt
            error = r.error.map(hiding.callAsFunction)
            wordsDone = r.wordsDone
            wordCount = r.wordCount
            audioMsDone = r.audioMsDone
            durationMs = r.durationMs
            chunkCount = r.chunkCount
            chunksRendered = r.chunksRendered
            chunksReused = r.chunksReused
            let total = r.wordCount ?? 0
            fraction = r.state == .succeeded ? 1 : total > 0 ? min(1, Double(r.wordsDone) / Double(total)) : 0
            if r.state == .running, fraction > 0.01, fraction < 1 {
                let elapsed = now.timeIntervalSince(r.startedAt)
                etaSeconds = (elapsed / fraction - elapsed).rounded()
            }
        }
    }

    struct Output: Codable, Sendable, ResponseEncodable {
        /// The path below the job's output folder (`alice.mp3`, `alice-chapters/01 - I.mp3`).
        var name: String
        var size: Int
        var mediaType: String
        /// Where to download it (HTTP Range supported).
        var url: String
    }

    struct Voice: Codable, Sendable, ResponseEncodable {
        var name: String
        var engine: String
        var identifier: String
        var gender: String
        var languages: [String]
        var speakers: [String]?
        /// A short audition of the voice, rendered on first request.
        var audition: String
    }

    struct Script: Codable, Sendable, ResponseEncodable {
        var title: String
        var words: Int
        var paragraphs: Int
        var estimatedSeconds: Double
        var chapters: [ScriptChapter]
        /// Passages left out before the first chapter.
        var unplaced: [ScriptLine]
        var skippedCount: Int
        var warnings: [String]
    }

    struct ScriptChapter: Codable, Sendable {
        var number: Int
        var title: String
        var part: String?
        var estimatedSeconds: Double
        var lines: [ScriptLine]
    }

    struct ScriptLine: Codable, Sendable {
        var kind: String
        var text: String
        var voice: String?
        var persona: String?
        var language: String?
        var reason: String?
        var words: Int?
        var passages: [[String]]?
    }

    struct Me: Codable, Sendable, ResponseEncodable {
        var owner: String
        var admin: Bool
        var token: String
    }

    struct Health: Codable, Sendable, ResponseEncodable {
        var status: String
        var version: String
        var store: String
    }

    struct Session: Codable, Sendable {
        var token: String
    }

    struct Feed: Codable, Sendable, ResponseEncodable {
        var url: String
    }
}
