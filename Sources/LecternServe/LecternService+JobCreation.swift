import Foundation
import Hummingbird
import HTTPTypes
import LecternCore
import LecternDocuments
import LecternRunner
import LecternSpeech
import LecternStore

/// Creating a job from an uploaded form: the upload received into `staging/`, the manifest
/// written or checked, its settings and inputs checked, and the job put in place whole.
extension LecternService {
    func createJob(_ request: Request, _ context: ServeContext) async throws -> EditedResponse<API.Job> {
        let caller = try context.requireCaller()
        if let wait = jobLimiter.take(caller.owner) {
            var error = ServeError(.tooManyRequests, "too many jobs created: \(Int(options.jobsPerMinute)) a minute; try again in \(Int(wait.rounded(.up))) s")
            error.headers[.retryAfter] = "\(Int(wait.rounded(.up)))"
            throw error
        }
        let folderName = UUID().uuidString.lowercased()
        let staged = folders.staging.appendingPathComponent(folderName)
        let input = staged.appendingPathComponent("input")
        do { try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true) } catch {
            throw ServeError(ServeError.insufficientStorage, "cannot store the upload: \(FileError.reason(error))")
        }
        var keep = false
        defer { if !keep { try? FileManager.default.removeItem(at: staged) } }
        let upload = try await UploadReceiver(limit: options.maxUploadBytes).receive(request, into: input)
        // Off the event loop: with no title given, the documents are read for the one they name.
        let (name, manifestText) = try await OffPool.run { try self.manifest(for: upload) }
        let manifestURL = input.appendingPathComponent(name + ".yml")
        // The manifest the service writes never replaces a file that was sent.
        if let clash = upload.files.first(where: { $0.field != "manifest" && $0.name == manifestURL.lastPathComponent }) {
            throw ServeError.badRequest("the file \(UserTextEcho.quoted(clash.name)) has the name of the job's manifest: rename it, "
                                        + "or give the job another name (field `name`)", field: clash.field)
        }
        try AtomicFile.write(Data(manifestText.utf8), to: manifestURL)
        try FileManager.default.createDirectory(at: staged.appendingPathComponent("output"), withIntermediateDirectories: true)
        let loaded = try await OffPool.run {
            let loaded = try self.validate(manifestURL: manifestURL, inside: staged)
            try self.preflight(loaded)
            return loaded
        }
        // The job appears whole: its folder by one rename, then its rows in one transaction.
        let final = folders.job(folderName)
        do { try FileManager.default.moveItem(at: staged, to: final) } catch {
            throw ServeError(.internalServerError, "cannot create the job's folder: \(FileError.reason(error))")
        }
        // New to the sweep of another `serve` starting now, however long the upload took.
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: final.path)
        let served = ServedJobRecord(jobId: 0, owner: caller.owner, folder: folderName, feedSecret: APIToken.secret(), createdAt: Date())
        let job: JobRecord
        do {
            job = try await store.addServedJob(served, manifestPath: folders.input(folderName).appendingPathComponent(name + ".yml").path,
                                               name: loaded.name, title: loaded.title)
        } catch {
            try? FileManager.default.removeItem(at: final)
            throw error
        }
        keep = true
        var stored = served
        stored.jobId = job.id!
        return EditedResponse(status: .created, headers: [.location: "/api/v1/jobs/\(job.id!)"], response: try await representation(job, stored))
    }

    /// The job's name and manifest text from the form.
    func manifest(for upload: UploadReceiver.Upload) throws -> (String, String) {
        let known: Set<String> = ["document", "manifest", "cover", "lexicon"]
        if let unknown = upload.files.first(where: { !known.contains($0.field) }) {
            throw ServeError.badRequest("the form's file field \(UserTextEcho.quoted(unknown.field)) is not one of document, manifest, cover, lexicon",
                                        field: unknown.field)
        }
        if let empty = upload.files.first(where: { $0.size == 0 }) {
            throw ServeError.badRequest("the file \(UserTextEcho.quoted(empty.name)) is empty: send it with its content", field: empty.field)
        }
        let textFields: Set<String> = ["name", "title", "author", "voice", "rate", "pitch", "volume", "manifest"]
        if let unknown = upload.fields.keys.sorted().first(where: { !textFields.contains($0) }) {
            throw ServeError.badRequest("the form's field \(UserTextEcho.quoted(unknown)) is not one of "
                                        + textFields.sorted().joined(separator: ", "), field: unknown)
        }
        let manifests = upload.files("manifest")
        guard manifests.count + (upload.fields["manifest"] == nil ? 0 : 1) <= 1 else {
            throw ServeError.badRequest("the form has more than one manifest", field: "manifest")
        }
        let uploaded = Set(upload.files.filter { $0.field != "manifest" }.map(\.name))
        if let manifestFile = manifests.first {
            guard let data = FileManager.default.contents(atPath: manifestFile.url.path), let text = String(data: data, encoding: .utf8) else {
                throw ServeError.badRequest("the manifest \(manifestFile.name) is not UTF-8 text", field: "manifest")
            }
            try? FileManager.default.removeItem(at: manifestFile.url)
            let stem = SafeName.jobName((manifestFile.name as NSString).deletingPathExtension) ?? "job"
            return (stem, try ServedManifest.fromUpload(text, uploaded: uploaded))
        }
        if let text = upload.fields["manifest"] {
            let stem = upload.fields["name"].flatMap(SafeName.jobName) ?? "job"
            return (stem, try ServedManifest.fromUpload(text, uploaded: uploaded))
        }
        let documents = upload.files("document")
        guard !documents.isEmpty else {
            throw ServeError.badRequest("the form needs a document (field `document`) or a manifest (field `manifest`)", field: "document")
        }
        func number(_ key: String) throws -> Double? {
            guard let text = upload.fields[key], !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
            guard let value = Double(text.trimmingCharacters(in: .whitespaces)) else {
                throw ServeError.badRequest("\(key) must be a number \(Self.rangeText(key))", field: key)
            }
            return value
        }
        // Without a title, an EPUB's own; else the one the book names itself by (a manifest needs one).
        let given = upload.fields["title"].flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        let title = given ?? (documents.contains { $0.name.lowercased().hasSuffix(".epub") } ? nil : BookName.of(documents.map(\.url)).title)
        let settings = try Self.checked(ServedManifest.Settings(title: title, author: upload.fields["author"], voice: upload.fields["voice"],
                                               rate: try number("rate"), pitch: try number("pitch"), volume: try number("volume")))
        let name = upload.fields["name"].flatMap(SafeName.jobName)
            ?? SafeName.jobName((documents[0].name as NSString).deletingPathExtension) ?? "book"
        let covers = upload.files("cover")
        guard covers.count <= 1 else { throw ServeError.badRequest("the form has more than one cover", field: "cover") }
        return (name, ServedManifest.written(name: name, documents: documents.map(\.name), cover: covers.first?.name,
                                             lexicons: upload.files("lexicon").map(\.name), settings: settings))
    }

    /// The ranges of a voice's numbers, as a manifest takes them.
    static let ranges: [(field: String, range: ClosedRange<Double>)] = [("rate", 0...1), ("pitch", 0.5...2), ("volume", 0...1)]

    static func rangeText(_ field: String) -> String {
        guard let range = ranges.first(where: { $0.field == field })?.range else { return "" }
        func text(_ x: Double) -> String { x == x.rounded() ? String(Int(x)) : String(x) }
        return "from \(text(range.lowerBound)) to \(text(range.upperBound))"
    }

    /// The settings of a form or `PATCH`, checked: numbers in their ranges, no control characters
    /// in the texts, and a voice that is installed (a Piper voice's name brings `engine: piper`).
    ///
    /// - throws: ``ServeError`` 400 naming the field.
    static func checked(_ given: ServedManifest.Settings) throws -> ServedManifest.Settings {
        var settings = given
        for (field, value) in [("rate", settings.rate), ("pitch", settings.pitch), ("volume", settings.volume)] {
            if let value, let range = ranges.first(where: { $0.field == field })?.range, !range.contains(value) {
                throw ServeError.badRequest("\(field) must be \(rangeText(field))", field: field)
            }
        }
        for (field, value) in [("title", settings.title), ("author", settings.author), ("voice", settings.voice)] {
            guard let value else { continue }
            if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                throw ServeError.badRequest("\(field) may not hold control characters", field: field)
            }
            if value.count > 500 { throw ServeError.badRequest("\(field) is longer than 500 characters", field: field) }
        }
        guard let name = settings.voice?.trimmingCharacters(in: .whitespaces), !name.isEmpty else { return settings }
        if PiperInstallation.default.problem == nil, PiperEngine.installedVoices().contains(where: { $0.name == name }) {
            settings.engine = "piper"
            return settings
        }
        do { try EspeakEngine.shared().validate(voice: name) } catch {
            throw ServeError.badRequest("there is no voice \(UserTextEcho.quoted(name)): GET /api/v1/voices lists them", field: "voice")
        }
        return settings
    }

    /// The checks a run makes before it synthesizes anything (``JobRunner/preflight(_:manifest:book:engine:)``,
    /// as `lectern check` makes them): a job is not made with inputs its run would refuse.
    ///
    /// - throws: ``ServeError`` 400 at the manifest's key (an unknown voice, an output that would
    ///   replace an input); 422 for documents that cannot be read or hold no words, naming them.
    func preflight(_ loaded: Manifest) throws {
        do {
            let book = try DocumentReader().read(loaded.sources)
            let manifest = loaded.filling(from: book.metadata)
            let plan = try Segmenter(manifest: manifest, lexicons: try LexiconFile.load(manifest.lexicons)).plan(book)
            _ = try JobRunner.preflight(plan, manifest: manifest, book: book, engine: try EspeakEngine.shared())
        } catch let error as ManifestError {
            throw ServeError.badRequest(hidingPaths(error.description), field: "manifest" + (error.key.map { ".\($0)" } ?? ""))
        } catch let error as DocumentError {
            throw ServeError(.unprocessableContent, hidingPaths(error.description), field: "document")
        } catch let error as ServeError {
            throw error
        } catch {
            throw ServeError(.unprocessableContent, hidingPaths(FileError.describe(error)), field: "manifest")
        }
    }

    /// Loads the manifest as a run would and checks every input it names lies in the job's
    /// folder (or the service's Config folder).
    func validate(manifestURL: URL, inside folder: URL) throws -> Manifest {
        let manifest: Manifest
        do { manifest = try ManifestLoader(configDirectory: options.configDirectory).load(manifestURL) } catch let error as ManifestError {
            throw ServeError.badRequest(hidingPaths(error.description), field: "manifest" + (error.key.map { ".\($0)" } ?? ""))
        } catch {
            throw ServeError.badRequest(hidingPaths("\(error)"), field: "manifest")
        }
        let base = folder.resolvingSymlinksInPath().path + "/"
        let config = (options.configDirectory ?? (try? ConfigLocation.find(near: folder))?.folder).map { $0.resolvingSymlinksInPath().path + "/" }
        for input in manifest.inputs {
            let resolved = FileIdentity.resolvedPath(input.url)
            guard resolved.hasPrefix(base) || (config.map { resolved.hasPrefix($0) } ?? false) else {
                throw ServeError.badRequest("\(input.role) lies outside the job's folder: a manifest sent over HTTP may only name files sent with it",
                                            field: "manifest")
            }
        }
        // Only what can be read is kept: a PDF, an image or random bytes sent as a document is refused now.
        do { _ = try DocumentReader.recognised(manifest.sources) } catch let error as DocumentError {
            throw ServeError.badRequest(hidingPaths(error.description), field: "document")
        }
        return manifest
    }
}
