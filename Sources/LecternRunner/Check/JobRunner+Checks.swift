import Foundation
import LecternCore
import LecternDocuments
import LecternSpeech
import LecternAudio

/// The checks `run` makes before any audio is made that `lectern check` makes too.
extension JobRunner {
    /// Every check `run` makes between planning and synthesis, in its order: words to narrate,
    /// the voices, the output folder and names, the cover. `lectern check`, a run and a job
    /// created over HTTP make them all, so that what passes one does not fail another.
    ///
    /// - returns: The manifest's cover, read (nil without one).
    /// - throws: ``DocumentError`` when the sources hold no words; ``ManifestError`` at the key
    ///   of an unknown voice or an output that would replace an input; ``FileError`` for an
    ///   output folder that cannot be written; ``AudioError`` for a cover that cannot be used.
    public static func preflight(_ plan: NarrationPlan, manifest: Manifest, book: Book, engine: EspeakEngine) throws -> ID3Tag.Picture? {
        guard plan.wordCount > 0 else {
            throw DocumentError(document: manifest.file.path, message: "the sources contain no words to narrate (\(plan.skipped.count) passages skipped)")
        }
        try validateVoices(plan, manifest: manifest, engine: engine)
        try OutputPreflight.validate(manifest, book: book)
        return try manifest.cover.map(picture)
    }

    /// Checks every voice the plan uses before any audio is made (espeak-ng voices by name; Piper
    /// voices installed, complete and at the book's sample rate, nothing loaded); an unknown voice
    /// is reported as a manifest error at the key that names it.
    public static func validateVoices(_ plan: NarrationPlan, manifest: Manifest, engine: EspeakEngine) throws {
        let voices = plan.voices.sorted { ($0.engineName.rawValue, $0.name) < ($1.engineName.rawValue, $1.name) }
        for voice in voices {
            var message: String?
            if voice.isPiper {
                message = SpeechEngines.problem(with: voice, sampleRate: engine.sampleRate)
            } else {
                do { try engine.validate(voice: voice.name) } catch let error as SpeechError { message = error.message }
            }
            guard let message else { continue }
            let field = voice.speaker != nil && message.contains("speaker") ? "speaker" : voice.model != nil ? "model" : "name"
            let names = { (v: VoiceSettings?) in v.map { $0.resolved().name == voice.name && $0.resolved().isPiper == voice.isPiper } ?? false }
            var key = "voice.\(field)"
            if let kind = manifest.styles.first(where: { names($0.value.merged(over: manifest.voice)) })?.key {
                key = "styles.\(kind.rawValue).\(field)"
            } else if let dialogue = manifest.dialogue, dialogue.name != nil || dialogue.engineGiven != nil,
                      names(dialogue.merged(over: manifest.voice)) {
                key = "dialogue.\(field)"
            } else if let tag = manifest.languages.first(where: { names($0.value) })?.key {
                key = "languages.\(tag)"
            } else if let entry = manifest.cast.entries.values.sorted(by: { ($0.line ?? 0) < ($1.line ?? 0) })
                        .first(where: { names($0.voice.merged(over: manifest.voice)) }) {
                key = "cast.\(entry.written)"
            } else if manifest.cast.pool?.contains(where: { names($0.merged(over: manifest.voice)) }) == true {
                key = "cast_pool"
            } else if !names(manifest.voice), manifest.overrides.contains(where: { names($0.voice?.merged(over: manifest.voice)) }) {
                key = "overrides"
            }
            let top = String(key.prefix { $0 != "." })
            throw ManifestError(file: manifest.file.path, line: manifest.lines[key] ?? manifest.lines[top], key: key, message: message)
        }
    }

    /// The manifest's cover, checked by its bytes (``CoverImage``: a JPEG or PNG, at most 16 MB,
    /// embedded with the bytes' MIME type whatever its extension says).
    public static func picture(_ url: URL) throws -> ID3Tag.Picture {
        let data: Data
        do {
            do { data = try LinkedFile(roots: [], maxBytes: CoverImage.maxBytes).read(url) } catch {
                guard error.kind == .tooLarge else { throw FileError("it \(error.reason)") }
                let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
                throw CoverImage.tooLarge(size)
            }
            return ID3Tag.Picture(mimeType: try CoverImage(data: data).mimeType, data: data)
        } catch let rejection as CoverImage.Rejection {
            throw AudioError("the cover \(url.path) cannot be used: \(rejection.reason)")
        } catch {
            throw AudioError("cannot read the cover \(url.path): \(FileError.reason(error))")
        }
    }
}
