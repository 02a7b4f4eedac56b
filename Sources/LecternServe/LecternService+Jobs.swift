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
            API.Health(status: "ok", version: options.version, store: store.isShared ? "postgresql" : "sqlite")
        }
        api.get("me") { _, context in
            let caller = try context.requireCaller()
            return API.Me(owner: caller.owner, admin: caller.admin, token: caller.tokenName)
        }
        api.post("session") { request, context in try await signIn(request, context) }
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
            return jobs
        }
        api.post("jobs") { request, context in try await createJob(request, context) }
        api.get("jobs/:id") { _, context in
            let (job, served) = try await accessibleJob(context)
            return try await representation(job, served)
        }
        api.patch("jobs/:id") { request, context in try await updateJob(request, context) }
        api.delete("jobs/:id") { _, context in
            let (job, served) = try await accessibleJob(context)
            // Decided by the store with the job locked, as a run start is: one of the two wins.
            if let busy = try await store.deleteIdleServedJob(jobId: job.id!) { throw ServeError.conflict(busy + ": cancel it first") }
            // The folder goes after the row: a crash between leaves a folder the sweep removes.
            try? FileManager.default.removeItem(at: folders.job(served.folder))
            return Response(status: .noContent)
        }
        api.get("jobs/:id/script") { _, context in
            let (job, _) = try await accessibleJob(context)
            return try await script(manifestPath: job.manifestPath)
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
        guard let id = context.parameters.get(name, as: Int64.self), id > 0 else {
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
        let configDirectory = options.configDirectory
        let settings = await OffPool.run { ServedManifest.formSettings(manifestAt: manifestURL, configDirectory: configDirectory) }
        return API.Job(id: job.id!, name: job.name, title: job.title, owner: served.owner, createdAt: job.createdAt, files: files,
                       manifest: (try? String(contentsOf: manifestURL, encoding: .utf8)) ?? "",
                       manifestError: job.manifestError.map(hidingPaths), settings: settings, latestRun: latest.map { API.Run($0, hiding: hiding) },
                       queued: try await supervisor.isQueued(jobId: job.id!), outputs: outputs, feed: "/feeds/\(served.feedSecret)/feed.xml")
    }

    static func size(_ url: URL) -> Int { ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size]) as? NSNumber)?.intValue ?? 0 }

    static func escapePath(_ path: String) -> String {
        path.split(separator: "/").map { $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? "" }
            .joined(separator: "/")
    }

    /// A message with the server's folders taken out (``PathHiding``).
    func hidingPaths(_ message: String) -> String { hiding(message) }

    private func signIn(_ request: Request, _ context: ServeContext) async throws -> Response {
        let session = try await request.decode(as: API.Session.self, context: context)
        guard APIToken.looksValid(session.token), let token = try await store.token(hash: APIToken.hash(session.token)) else {
            throw TokenAuthenticator.unauthorized("the API token is not valid (revoked, or mistyped)")
        }
        let secure = options.publicURL?.scheme == "https" || request.headers[.init("X-Forwarded-Proto")!] == "https" ? "; Secure" : ""
        var response = try JSONBody.response(API.Me(owner: token.owner, admin: token.admin, token: token.name))
        response.headers[.setCookie] = "\(TokenAuthenticator.cookieName)=\(session.token); Path=/; HttpOnly; SameSite=Strict\(secure)"
        return response
    }

    private func updateJob(_ request: Request, _ context: ServeContext) async throws -> API.Job {
        let (job, served) = try await accessibleJob(context)
        let settings = try Self.checked(try await request.decode(as: ServedManifest.Settings.self, context: context))
        let manifestURL = URL(fileURLWithPath: job.manifestPath)
        let text = (try? String(contentsOf: manifestURL, encoding: .utf8)) ?? ""
        let edited = try ServedManifest.patched(text, with: settings)
        // Checked under a name of its own beside it, then put in place by rename.
        let trial = manifestURL.deletingLastPathComponent().appendingPathComponent(".patch-\(UUID().uuidString).yml")
        defer { try? FileManager.default.removeItem(at: trial) }
        try AtomicFile.write(Data(edited.utf8), to: trial)
        // An edit changes settings only (each checked above; a voice must be installed), never the documents.
        _ = try await OffPool.run { try self.validate(manifestURL: trial, inside: self.folders.job(served.folder)) }
        // Put in place only while no run of the job is queued or under way, decided by the store
        // with the job locked: a start racing this edit comes before it (409 here) or after it.
        if let busy = try await store.editIdleJob(jobId: job.id!, { try AtomicFile.write(Data(edited.utf8), to: manifestURL) }) {
            throw ServeError.conflict(busy + ": change it after")
        }
        let refreshed = try await store.job(manifestPath: job.manifestPath, name: job.name, title: settings.title ?? job.title)
        return try await representation(refreshed, served)
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
