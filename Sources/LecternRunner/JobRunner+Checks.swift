import Foundation
import LecternCore
import LecternSpeech
import LecternAudio

/// The checks `run` makes before any audio is made that `lectern check` makes too.
extension JobRunner {
    /// Checks every voice the plan uses before any audio is made; an unknown voice is reported
    /// as a manifest error at the key that names it.
    public static func validateVoices(_ plan: NarrationPlan, manifest: Manifest, engine: EspeakEngine) throws {
        for name in plan.voiceNames.sorted() {
            do { try engine.validate(voice: name) } catch let error as SpeechError {
                var key = "voice.name"
                if let kind = manifest.styles.first(where: { $0.value.name == name })?.key {
                    key = "styles.\(kind.rawValue).name"
                } else if manifest.voice.name != name, manifest.overrides.contains(where: { $0.voice?.name == name }) {
                    key = "overrides"
                }
                let top = String(key.prefix { $0 != "." })
                throw ManifestError(file: manifest.file.path, line: manifest.lines[top], key: key, message: error.message)
            }
        }
    }

    /// The manifest's cover, checked by its bytes (``CoverImage``: a JPEG or PNG, at most 16 MB,
    /// embedded with the bytes' MIME type whatever its extension says).
    public static func picture(_ url: URL) throws -> ID3Tag.Picture {
        let data: Data
        do {
            let size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
            guard size <= CoverImage.maxBytes else { throw CoverImage.tooLarge(size) }
            data = try Data(contentsOf: url)
            return ID3Tag.Picture(mimeType: try CoverImage(data: data).mimeType, data: data)
        } catch let rejection as CoverImage.Rejection {
            throw AudioError("the cover \(url.path) cannot be used: \(rejection.reason)")
        } catch {
            throw AudioError("cannot read the cover \(url.path): \(FileError.reason(error))")
        }
    }
}
