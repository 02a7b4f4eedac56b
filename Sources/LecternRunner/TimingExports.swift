import Foundation
import LecternCore
import LecternTiming

/// Writes the timing exports other than the JSON sidecar (WebVTT, SRT, the read-along page) from the finished sidecar,
/// each synced under a temporary name, to be renamed into place with the MP3.
enum TimingExports {
    /// - parameters:
    ///     - formats: The manifest's `timings`.
    ///     - sidecar: The finished (prepared, not yet committed) JSON sidecar.
    /// - returns: The prepared files, in `formats` order, for the caller to commit or discard.
    static func prepare(_ formats: [TimingFormat], from sidecar: TimingSidecarWriter, manifest: Manifest) throws -> [AtomicFile] {
        let others = formats.filter { $0 != .json }
        guard !others.isEmpty else { return [] }
        let document = try JSONDecoder().decode(TimingDocument.self, from: Data(contentsOf: sidecar.temporaryURL))
        var files: [AtomicFile] = []
        do {
            for format in others {
                let text: String
                switch format {
                case .json: continue
                case .vtt: text = WebVTTWriter.render(document)
                case .srt: text = SRTWriter.render(document)
                case .html: text = ReadAlongPage.html(for: document, audio: manifest.mp3URL.lastPathComponent)
                }
                let file = try AtomicFile(manifest.url(for: format))
                files.append(file)
                try file.write(Data(text.utf8))
                try file.prepare()
            }
        } catch {
            files.forEach { $0.discard() }
            throw error
        }
        return files
    }
}
