import Foundation
import LecternCore

extension ServedManifest {
    /// The voice and speed the dashboard's form shows for the manifest at `url`, as the manifest
    /// loader reads it (presets, defaults and all): the one place the service reads a manifest's
    /// values for a client. Nil when the manifest cannot be loaded (the job's `manifestError`
    /// says why).
    static func formSettings(manifestAt url: URL, configDirectory: URL?) -> API.FormSettings? {
        guard let manifest = try? ManifestLoader(configDirectory: configDirectory).load(url) else { return nil }
        return API.FormSettings(voice: manifest.voiceFollowsBook ? nil : manifest.voice.name, rate: manifest.voice.rate)
    }
}

extension API {
    /// The settings of a job's manifest that the dashboard's form edits (``ServedManifest/Settings``).
    struct FormSettings: Codable, Sendable, Equatable {
        /// The voice the manifest names; absent when it names none (the book's language chooses).
        var voice: String?
        /// The speaking rate, 0…1 (the defaults' when the manifest gives none).
        var rate: Double?
    }
}
