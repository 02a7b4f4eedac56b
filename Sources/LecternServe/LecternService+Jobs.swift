import Foundation
import Hummingbird
import HTTPTypes
import LecternCore
import LecternDocuments
import LecternRunner
import LecternSpeech
import LecternStore

/// Jobs: created from an uploaded form, listed, shown, changed, deleted, and their narration script.
extension LecternService {
    func addJobRoutes(to api: RouterGroup<ServeContext>) {
        api.get("health") { _, _ in
            try JSONBody.response(API.Health(status: "ok", version: options.version, store: store.isShared ? "postgresql" : "sqlite"))
        }
        api.get("me") { _, context in
            let caller = try context.requireCaller()
            return try JSONBody.response(API.Me(owner: caller.owner, admin: caller.admin, token: caller.tokenName))
        }
        api.post("session") { request, _ in try await signIn(request) }
        api.delete("session") { _, _ in
            var response = Response(status: .noContent)
            response.headers[.setCookie] = "\(TokenAuthenticator.cookieName)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"
            return response
        }
        api.get("jobs") { _, context in
            let caller = try context.requireCaller()
            var jobs: [API.Job] = []
            for served in try await store.servedJobs() where caller.mayAccess(owner: served.owner) {
                guard let job = try await store.job(id: served.jobId) else { continue }
                jobs.append(try await representation(job, served))
            }
            return try JSONBody.response(jobs)
        }
        api.post("jobs") { request, context in try await createJob(request, context) }
        api.get("jobs/:id") { _, context in
            let (job, served) = try await accessibleJob(context)
            return try JSONBody.response(try await representation(job, served))
        }
        api.patch("jobs/:id") { request, context in try await updateJob(request, context) }
        api.delete("jobs/:id") { _, context in
            let (job, served) = try await accessibleJob(context)
            guard await !supervisor.isActive(jobId: job.id!) else { throw ServeError.conflict("the job is running or queued: cancel it first") }
            if let lease = try await store.lease(jobId: job.id!), lease.expiresAt > Date() {
                throw ServeError.conflict("the job is being rendered: cancel it first")
            }
            try await store.deleteServedJob(jobId: job.id!)
            // The folder goes after the row: a crash between leaves a folder the sweep removes.
            try? FileManager.default.removeItem(at: folders.job(served.folder))
            return Response(status: .noContent)
        }
        api.get("jobs/:id/script") { _, context in
            let (job, _) = try await accessibleJob(context)
            return try JSONBody.response(try await script(manifestPath: job.manifestPath))
        }
    }

    /// The job of the request's `:id`, if the caller may see it (else 404, as for no job at all).
    func accessibleJob(_ context: ServeContext) async throws -> (JobRecord, ServedJobRecord) {
        let caller = try context.requireCaller()
        let id = try Self.id(context, "id")
        guard let served = try await store.servedJob(jobId: id), caller.mayAccess(owner: served.owner),
              let job = try await store.job(id: id) else { throw ServeError.notFound("job \(id)") }
        return (job, served)
    }

    static func id(_ context: ServeContext, _ name: String) throws -> Int64 {
        guard let text = context.parameters.get(name), let id = Int64(text), id > 0 else {
            throw ServeError.badRequest("\(name) must be a positive integer", field: name)
        }
        return id
    }

    func representation(_ job: JobRecord, _ served: ServedJobRecord) async throws -> API.Job {
        let input = folders.input(served.folder), output = folders.output(served.folder)
        let manifestURL = URL(fileURLWithPath: job.manifestPath)
        let files = ServiceFolders.files(below: input).filter { $0 != manifestURL.lastPathComponent }
        let latest = try await store.runs(jobId: job.id!, limit: 1).first
        let outputs = ServiceFolders.files(below: output).map { name in
            API.Output(name: name, size: Self.size(output.appendingPathComponent(name)), mediaType: ServiceFolders.mediaType(of: name),
                       url: "/api/v1/jobs/\(job.id!)/outputs/" + Self.escapePath(name))
        }
        return API.Job(id: job.id!, name: job.name, title: job.title, owner: served.owner, createdAt: job.createdAt, files: files,
                       manifest: (try? String(contentsOf: manifestURL, encoding: .utf8)) ?? "",
                       manifestError: job.manifestError.map(hidingPaths), latestRun: latest.map { API.Run($0) },
                       queued: await supervisor.isQueued(jobId: job.id!), outputs: outputs, feed: "/feeds/\(served.feedSecret)/feed.xml")
    }

    static func size(_ url: URL) -> Int { ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size]) as? NSNumber)?.intValue ?? 0 }

    static func escapePath(_ path: String) -> String {
        path.split(separator: "/").map { $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? "" }
            .joined(separator: "/")
    }

    /// A message with the data folder's path taken out: a client sees `alice.yml`, not the
    /// server's folders.
    func hidingPaths(_ message: String) -> String { Self.hiding(folders, message) }

    static func hiding(_ folders: ServiceFolders, _ message: String) -> String {
        var text = message
        for folder in [folders.jobs.path, folders.staging.path] {
            // jobs/ID/input/alice.yml → alice.yml
            while let range = text.range(of: folder + "/") {
                let rest = text[range.upperBound...]
                let inner = rest.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
                let skip = inner.count == 3 ? inner[0].count + inner[1].count + 2 : 0
                text.replaceSubrange(range.lowerBound..<text.index(range.upperBound, offsetBy: skip), with: "")
            }
        }
        return text.replacingOccurrences(of: folders.root.path, with: "…")
    }

    private func signIn(_ request: Request) async throws -> Response {
        let session = try await JSONBody.decode(API.Session.self, from: request)
        guard APIToken.looksValid(session.token), let token = try await store.token(hash: APIToken.hash(session.token)) else {
            throw TokenAuthenticator.unauthorized("the API token is not valid (revoked, or mistyped)")
        }
        let secure = options.publicURL?.scheme == "https" || request.headers[.init("X-Forwarded-Proto")!] == "https" ? "; Secure" : ""
        var response = try JSONBody.response(API.Me(owner: token.owner, admin: token.admin, token: token.name))
        response.headers[.setCookie] = "\(TokenAuthenticator.cookieName)=\(session.token); Path=/; HttpOnly; SameSite=Strict\(secure)"
        return response
    }

    private func createJob(_ request: Request, _ context: ServeContext) async throws -> Response {
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
        let (name, manifestText) = try manifest(for: upload)
        let manifestURL = input.appendingPathComponent(name + ".yml")
        try AtomicFile.write(Data(manifestText.utf8), to: manifestURL)
        let loaded = try await OffPool.run { try self.validate(manifestURL: manifestURL, inside: staged) }
        try FileManager.default.createDirectory(at: staged.appendingPathComponent("output"), withIntermediateDirectories: true)
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
        var headers = HTTPFields()
        headers[.location] = "/api/v1/jobs/\(job.id!)"
        return try JSONBody.response(try await representation(job, stored), status: .created, headers: headers)
    }

    /// The job's name and manifest text from the form.
    private func manifest(for upload: UploadReceiver.Upload) throws -> (String, String) {
        let known: Set<String> = ["document", "manifest", "cover", "lexicon"]
        if let unknown = upload.files.first(where: { !known.contains($0.field) }) {
            throw ServeError.badRequest("the form's file field \(UserTextEcho.quoted(unknown.field)) is not one of document, manifest, cover, lexicon",
                                        field: unknown.field)
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
        func number(_ key: String, _ range: ClosedRange<Double>) throws -> Double? {
            guard let text = upload.fields[key], !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
            guard let value = Double(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
                throw ServeError.badRequest("\(key) must be a number from \(range.lowerBound) to \(range.upperBound)", field: key)
            }
            return value
        }
        // Without a title, an EPUB's own; else the document's name (a manifest needs one).
        let stem = (documents[0].name as NSString).deletingPathExtension
        let given = upload.fields["title"].flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        let title = given ?? (documents.contains { $0.name.lowercased().hasSuffix(".epub") } ? nil
            : stem.replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: "-", with: " "))
        let settings = try Self.checked(ServedManifest.Settings(title: title, author: upload.fields["author"], voice: upload.fields["voice"],
                                               rate: try number("rate", 0...1), pitch: try number("pitch", 0.5...2),
                                               volume: try number("volume", 0...1)))
        let name = upload.fields["name"].flatMap(SafeName.jobName)
            ?? SafeName.jobName((documents[0].name as NSString).deletingPathExtension) ?? "book"
        let covers = upload.files("cover")
        guard covers.count <= 1 else { throw ServeError.badRequest("the form has more than one cover", field: "cover") }
        return (name, ServedManifest.written(name: name, documents: documents.map(\.name), cover: covers.first?.name,
                                             lexicons: upload.files("lexicon").map(\.name), settings: settings))
    }

    /// The settings of a form or `PATCH`, checked: no control characters in the texts, and a
    /// voice that is installed (a Piper voice's name brings `engine: piper`).
    ///
    /// - throws: ``ServeError`` 400 naming the field.
    static func checked(_ given: ServedManifest.Settings) throws -> ServedManifest.Settings {
        var settings = given
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
        return manifest
    }

    private func updateJob(_ request: Request, _ context: ServeContext) async throws -> Response {
        let (job, served) = try await accessibleJob(context)
        let settings = try Self.checked(try await JSONBody.decode(ServedManifest.Settings.self, from: request))
        if let rate = settings.rate, !(0...1).contains(rate) { throw ServeError.badRequest("rate must be from 0 to 1", field: "rate") }
        if let pitch = settings.pitch, !(0.5...2).contains(pitch) { throw ServeError.badRequest("pitch must be from 0.5 to 2", field: "pitch") }
        if let volume = settings.volume, !(0...1).contains(volume) { throw ServeError.badRequest("volume must be from 0 to 1", field: "volume") }
        guard await !supervisor.isActive(jobId: job.id!) else { throw ServeError.conflict("the job is running or queued: change it after") }
        let manifestURL = URL(fileURLWithPath: job.manifestPath)
        let text = (try? String(contentsOf: manifestURL, encoding: .utf8)) ?? ""
        let edited = try ServedManifest.patched(text, with: settings)
        // Checked under a name of its own beside it, then put in place by rename.
        let trial = manifestURL.deletingLastPathComponent().appendingPathComponent(".patch-\(UUID().uuidString).yml")
        defer { try? FileManager.default.removeItem(at: trial) }
        try AtomicFile.write(Data(edited.utf8), to: trial)
        let loaded = try await OffPool.run { try self.validate(manifestURL: trial, inside: self.folders.job(served.folder)) }
        _ = loaded
        try AtomicFile.write(Data(edited.utf8), to: manifestURL)
        let refreshed = try await store.job(manifestPath: job.manifestPath, name: job.name, title: settings.title ?? job.title)
        return try JSONBody.response(try await representation(refreshed, served))
    }

    /// `lectern check --text` as values: what will be heard and what is skipped and why.
    func script(manifestPath: String) async throws -> API.Script {
        let configDirectory = options.configDirectory
        return try await OffPool.run {
            do {
                let loaded = try ManifestLoader(configDirectory: configDirectory).load(URL(fileURLWithPath: manifestPath))
                let book = try DocumentReader().read(loaded.sources)
                let manifest = loaded.filling(from: book.metadata)
                let plan = try Segmenter(manifest: manifest, lexicons: try LexiconFile.load(manifest.lexicons)).plan(book)
                let script = NarrationScript(plan: plan, title: manifest.title)
                func line(_ l: NarrationScript.Line) -> API.ScriptLine {
                    API.ScriptLine(kind: l.kind, text: l.text, voice: l.voice, persona: l.persona, language: l.language, reason: l.reason,
                                   words: l.words, passages: l.passages)
                }
                let estimates = Dictionary(plan.chapters.map { ($0.number, NarrationEstimate.seconds($0)) }, uniquingKeysWith: { a, _ in a })
                let chapters = script.chapters.map { c in
                    API.ScriptChapter(number: c.number, title: c.title, part: c.part, estimatedSeconds: estimates[c.number] ?? 0,
                                      lines: c.lines.map(line))
                }
                let warnings = book.warnings + plan.warnings + NarrationReview().findings(in: plan).map(\.description)
                return API.Script(title: manifest.title, words: plan.wordCount, paragraphs: plan.utteranceCount,
                                  estimatedSeconds: chapters.reduce(0) { $0 + $1.estimatedSeconds }, chapters: chapters,
                                  unplaced: script.unplaced.map(line), skippedCount: plan.skipped.count, warnings: warnings.map(self.hidingPaths))
            } catch let error as ManifestError {
                throw ServeError(.unprocessableContent, self.hidingPaths(error.description), field: "manifest" + (error.key.map { ".\($0)" } ?? ""))
            } catch let error as DocumentError {
                throw ServeError(.unprocessableContent, self.hidingPaths(error.description), field: "document")
            } catch let error as ServeError {
                throw error
            } catch {
                throw ServeError(.unprocessableContent, self.hidingPaths("\(error)"), field: "manifest")
            }
        }
    }
}
