import Foundation
import Hummingbird
import HTTPTypes
import LecternRunner
import LecternStore

/// The podcast feed of each book at its secret address, `/feeds/SECRET/…` (``PodcastPublication``:
/// `feed.xml`, `audio/…` with HTTP Range, `chapters/…json`, `transcripts/…vtt`, `cover.…`). The
/// secret is the only key — podcast apps send no token — so it is long, random, and can be
/// replaced (`POST /api/v1/jobs/ID/feed/rotate`); an unknown secret and a book never rendered
/// answer 404 alike.
extension LecternService {
    func addFeedRoutes(to router: Router<ServeContext>) {
        for method in [HTTPRequest.Method.get, .head] {
            router.on("feeds/:secret/**", method: method) { request, context in try await feed(request, context) }
        }
        router.post("api/v1/jobs/:id/feed/rotate") { _, context in
            let (_, served) = try await accessibleJob(context)
            var rotated = served
            rotated.feedSecret = APIToken.secret()
            try await store.updateServedJob(rotated)
            return API.Feed(url: "/feeds/\(rotated.feedSecret)/feed.xml")
        }
    }

    private func feed(_ request: Request, _ context: ServeContext) async throws -> Response {
        guard let secret = context.parameters.get("secret"), secret.count <= 64, secret.utf8.allSatisfy(APIToken.isBase64URL),
              let served = try await store.servedJob(feedSecret: secret), let job = try await store.job(id: served.jobId) else {
            throw ServeError.notFound("feed")
        }
        // Segments arrive escaped; one that does not unescape names nothing.
        let path = context.parameters.getCatchAll().map { $0.removingPercentEncoding ?? "\0" }.joined(separator: "/")
        let publication: PodcastPublication
        do {
            publication = try await PodcastPublication(store: store, manifestURL: URL(fileURLWithPath: job.manifestPath))
        } catch {
            throw ServeError(.notFound, "feed not found: the book has no finished render yet")
        }
        let base = feedBase(request).appendingPathComponent("feeds").appendingPathComponent(secret)
        guard let resource = try publication.resource(at: path, baseURL: base) else { throw ServeError.notFound("feed file \(path)") }
        switch resource {
        case .file(let url, let contentType):
            // Only the job's own files: its outputs and its cover.
            let file = url.resolvingSymlinksInPath()
            guard file.path.hasPrefix(folders.job(served.folder).resolvingSymlinksInPath().path + "/") else {
                throw ServeError.notFound("feed file \(path)")
            }
            return try await Self.serve(file: file, request: request, context: context, mediaType: contentType)
        case .document(let data, let contentType):
            let body = request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: data))
            return Response(status: .ok, headers: [.contentType: contentType, .contentLength: "\(data.count)", .cacheControl: "no-cache"],
                            body: body)
        }
    }

    /// The service's address as the client reached it: `--public-url`, else the request's Host.
    func feedBase(_ request: Request) -> URL {
        if let url = options.publicURL { return url }
        let host = request.head.authority ?? "\(options.host):\(options.port)"
        let proto = request.headers[HTTPField.Name("X-Forwarded-Proto")!] == "https" ? "https" : "http"
        return URL(string: "\(proto)://\(host)") ?? URL(string: "http://127.0.0.1:\(options.port)")!
    }
}
