import Foundation
import Hummingbird
import HTTPTypes
import LecternAudio
import LecternCore
import LecternRunner
import LecternSpeech

/// Outputs (downloaded with HTTP Range, so audio streams and seeks) and voices with auditions.
extension LecternService {
    func addFileRoutes(to api: RouterGroup<ServeContext>) {
        api.get("jobs/:id/outputs") { _, context in
            let (job, served) = try await accessibleJob(context)
            return try await representation(job, served).outputs
        }
        for method in [HTTPRequest.Method.get, .head] {
            api.on("jobs/:id/outputs/**", method: method) { request, context in
                let (_, served) = try await accessibleJob(context)
                // The router hands path segments over as sent: `01%20-%20I.mp3` names `01 - I.mp3` (a
                // segment that decodes to a `/`, or does not decode, names no file).
                let path = context.parameters.getCatchAll().map { Substring($0.removingPercentEncoding ?? "\0") }
                guard let file = ServiceFolders.file(path, inside: folders.output(served.folder)) else {
                    throw ServeError.notFound("output \(path.joined(separator: "/"))")
                }
                return try await Self.serve(file: file, request: request, context: context)
            }
        }
        api.get("voices") { request, context in
            _ = try context.requireCaller()
            let language = request.uri.queryParameters.get("language")
            return try await voices(language: language)
        }
        api.get("voices/:name/audition") { request, context in
            _ = try context.requireCaller()
            guard let name = context.parameters.get("name")?.removingPercentEncoding, !name.isEmpty, name.count <= 100 else {
                throw ServeError.badRequest("name must name a voice", field: "name")
            }
            let file = try await audition(voice: name)
            return try await Self.serve(file: file, request: request, context: context)
        }
    }

    /// A file with `Accept-Ranges`, an `ETag` from its size and time, `Range` (206, or 416 past
    /// the end), `If-Range` and `If-None-Match`; HEAD answers the headers alone. The file is opened
    /// once: headers and bytes are of the same file even if a run replaces it meanwhile.
    ///
    /// Not Hummingbird's `FileMiddleware`/`FileIO`: they open the path twice (attributes, then
    /// bytes), so a replaced output is sent short of its `Content-Length`, and they answer
    /// `bytes=-N` with the first N+1 bytes and a range past the end with 206 (measured, docs/RUNTIME.md).
    static func serve(file: URL, request: Request, context: ServeContext, mediaType: String? = nil) async throws -> Response {
        guard let opened = OpenedFile(path: file.path) else { throw ServeError.notFound(file.lastPathComponent) }
        let size = opened.size
        let etag = "\"\(String(size, radix: 16))-\(String(opened.modifiedMilliseconds, radix: 16))\""
        var headers: HTTPFields = [.contentType: mediaType ?? ServiceFolders.mediaType(of: file.lastPathComponent),
                                   .acceptRanges: "bytes", .eTag: etag, .cacheControl: "private, no-cache"]
        if request.headers[.ifNoneMatch] == etag { return Response(status: .notModified, headers: headers) }
        var answer = ByteRange.answer(request.headers[.range], size: size)
        if let ifRange = request.headers[.ifRange], ifRange != etag { answer = .whole }
        let isHead = request.method == .head
        switch answer {
        case .unsatisfiable:
            var error = ServeError(.rangeNotSatisfiable, "the range \(request.headers[.range] ?? "") lies past the end of the file (\(size) bytes)",
                                   field: "Range")
            error.headers[.contentRange] = "bytes */\(size)"
            throw error
        case .part(let range):
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
            headers[.contentLength] = "\(range.count)"
            return Response(status: .partialContent, headers: headers, body: isHead ? ResponseBody() : opened.body(range))
        case .whole:
            headers[.contentLength] = "\(size)"
            return Response(status: .ok, headers: headers, body: isHead || size == 0 ? ResponseBody() : opened.body(0...(size - 1)))
        }
    }

    func voices(language: String?) async throws -> [API.Voice] {
        try await OffPool.run {
            let piper = PiperInstallation.default.problem == nil ? PiperEngine.installedVoices(language: language) : []
            let espeak = try EspeakEngine.shared().voices(language: language).map { voice -> VoiceInfo in
                var voice = voice
                voice.engine = .espeak
                return voice
            }
            return (espeak + piper).map { v in
                // A Piper voice's identifier is its model's path on the server: its name stands for it.
                API.Voice(name: v.name, engine: (v.engine ?? .espeak).rawValue, identifier: v.engine == .piper ? v.name : v.identifier, gender: v.gender, languages: v.languages,
                          speakers: v.speakers, audition: "/api/v1/voices/\(v.name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? v.name)/audition")
            }
        }
    }

    /// A short sample of the voice as `lectern say` renders it, made once and kept in
    /// `auditions/`. Requests for one audition while it renders wait for that render; it is put
    /// in place only whole and checked (an MP3 with audio frames after its tag), and a file
    /// already in place (another `serve` on the data folder made it) is kept.
    func audition(voice name: String) async throws -> URL {
        let known = try await voices(language: nil)
        guard let voice = known.first(where: { $0.name == name }) else { throw ServeError.notFound("voice \(UserTextEcho.quoted(name))") }
        let file = folders.auditions.appendingPathComponent(SHA256.hex(voice.engine + "\u{0}" + voice.name).prefix(24) + ".mp3")
        if Self.isWholeMP3(file) { return file }
        try await auditions.run(file.path) {
            guard !Self.isWholeMP3(file) else { return }
            try await OffPool.run { try self.renderAudition(voice, to: file) }
        }
        return file
    }

    private func renderAudition(_ voice: API.Voice, to file: URL) throws {
        let text = "This is the voice \(voice.name). It will read your book like this: clearly, and at an even pace."
        let engine = try EspeakEngine.shared()
        let settings = VoiceSettings(name: voice.name, engine: voice.engine == "piper" ? "piper" : nil).resolved()
        if settings.isPiper, let problem = SpeechEngines.problem(with: settings, sampleRate: engine.sampleRate) {
            throw ServeError(.unprocessableContent, "the voice \(voice.name) cannot speak: \(problem)")
        }
        let synthesis = try SpeechEngines(espeak: engine).engine(for: settings).synthesize(text, voice: settings, pronunciations: [])
        let samples = Array(synthesis.samples[SilenceTrimmer.speechRange(synthesis.samples)])
        // Every name below is this render's own (AtomicFile's temporary names are per writer).
        let stream = AtomicFile.temporaryURL(for: file.deletingPathExtension().appendingPathExtension("stream"))
        defer { try? FileManager.default.removeItem(at: stream) }
        let writer = try MP3StreamWriter(url: stream, sampleRate: engine.sampleRate, settings: AudioSettings(bitrate: 64))
        try writer.write(samples)
        try writer.finish()
        let output = try AtomicFile.produced(at: file) { temporary in
            try MP3BookAssembler.assemble(tag: ID3Tag(title: "\(voice.name) audition"), stream: stream, output: temporary)
        }
        defer { output.discard() }
        do { _ = try MP3StreamFacts(contentsOf: output.temporaryURL) } catch {
            throw ServeError(.internalServerError, "the audition of the voice \(voice.name) came out without audio: \(error)")
        }
        try output.prepare()
        // Linked, not renamed: an audition another process put in place first is kept as it is.
        guard link(output.temporaryURL.path, file.path) == 0 || (errno == EEXIST && Self.isWholeMP3(file)) else {
            // A broken file from an earlier version, or a failed link: replaced whole.
            try output.commit()
            return
        }
        AtomicFile.syncFolder(file.deletingLastPathComponent())
    }

    /// Whether `file` is an MP3 with at least one audio frame after its tag.
    static func isWholeMP3(_ file: URL) -> Bool {
        guard FileManager.default.fileExists(atPath: file.path) else { return false }
        return (try? MP3StreamFacts(contentsOf: file)).map { $0.frames > 0 } ?? false
    }
}
