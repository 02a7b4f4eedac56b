import Foundation
import Hummingbird
import HummingbirdCore
import HTTPTypes
import Logging
import LecternCore
import LecternStore
import NIOCore
import ServiceLifecycle

/// `lectern serve`: narration as a service over HTTP — jobs created from uploaded documents or
/// manifests, their narration scripts, runs with live progress (Server-Sent Events), voices with
/// auditions, outputs downloaded with HTTP Range, a dashboard for the browser and a podcast feed
/// per book (docs/openapi.yaml describes the API).
///
/// Every job lives in the data folder (``ServiceFolders``) and in the job store, with its owner:
/// a token sees and changes its owner's jobs, an admin's every job. With a PostgreSQL store,
/// several `serve` processes sharing the data folder (NFS or the like) serve the same jobs.
public struct LecternService: Sendable {
    /// How the service runs.
    public struct Options: Sendable {
        public var dataFolder: URL
        public var host = "127.0.0.1"
        public var port = 8080
        /// The largest upload accepted, in bytes.
        public var maxUploadBytes = 200 << 20
        /// Jobs a token's owner may create per minute (a burst of as many at once).
        public var jobsPerMinute = 10.0
        public var maxConcurrentRuns = 1
        public var workers: Int?
        public var sharedChunks: (any ChunkStore)?
        public var configDirectory: URL?
        /// The service's address as clients reach it (`https://narration.example.org`), for the
        /// podcast feeds' links; default: the address the request came to.
        public var publicURL: URL?
        /// What `/api/v1/health` and the Server header report.
        public var version = "lectern"
        /// Seconds a connection may stay silent: while its request's headers have not all
        /// arrived, while its request's body makes no progress, and between its requests. An
        /// answer being sent (an event stream) is not silence.
        public var idleTimeout = 30.0
        /// Connections held open at once; default: from the open-file limit
        /// (``OpenFileLimit/connections(for:)``).
        public var maxConnections: Int?
        /// Connections held open at once from one client address.
        public var maxConnectionsPerClient = 64

        public init(dataFolder: URL) { self.dataFolder = dataFolder }
    }

    let store: any JobStore
    let options: Options
    let logger: Logger
    let folders: ServiceFolders
    let supervisor: RunSupervisor
    let jobLimiter: RateLimiter
    let hiding: PathHiding
    /// Auditions being rendered, so that requests for one wait for its one render.
    let auditions = SingleFlight()

    public init(store: any JobStore, options: Options, logger: Logger) {
        self.store = store
        self.options = options
        self.logger = logger
        folders = ServiceFolders(root: options.dataFolder)
        hiding = PathHiding(folders: folders, configDirectory: options.configDirectory)
        supervisor = RunSupervisor(store: store, logger: logger, options: .init(
            maxConcurrent: options.maxConcurrentRuns, workers: options.workers, sharedChunks: options.sharedChunks,
            configDirectory: options.configDirectory))
        jobLimiter = RateLimiter(perMinute: options.jobsPerMinute, burst: max(1, options.jobsPerMinute))
    }

    /// The routes, for the application and for tests.
    func router() -> Router<ServeContext> {
        let router = Router(context: ServeContext.self)
        router.add(middleware: SecurityHeaders())
        router.add(middleware: ErrorAnswers(hiding: hiding, logger: logger))
        router.add(middleware: TokenAuthenticator(store: store))
        addDashboardRoutes(to: router)
        let api = router.group("api/v1")
        addJobRoutes(to: api)
        addRunRoutes(to: api)
        addFileRoutes(to: api)
        addFeedRoutes(to: router)
        return router
    }

    /// Serves until SIGTERM or SIGINT, then cancels this process's runs (recorded as cancelled)
    /// and returns; runs still queued stay queued in the store.
    ///
    /// - parameter listening: told the port once the server listens (a port of 0 picks one).
    public func run(listening: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        try folders.create()
        let served = try await store.servedJobs()
        folders.sweep(known: Set(served.map(\.folder)))
        // What a process that died left: its runs recorded as interrupted at once, and the ones
        // a `serve` started queued again in their place to resume (``RunSupervisor``).
        await supervisor.settleDeadClaims()
        await supervisor.settleOrphans(jobIds: served.map(\.jobId))
        let files = OpenFileLimit.raiseToHard()
        let limits = ConnectionLimits(total: options.maxConnections ?? OpenFileLimit.connections(for: files),
                                      perClient: options.maxConnectionsPerClient)
        logger.info("at most \(limits.total) connections (\(limits.perClient) from one address; \(files) open files), silent ones closed after \(options.idleTimeout) s")
        let http1 = HTTP1Channel.Configuration(idleTimeout: .milliseconds(Int64((options.idleTimeout * 1000).rounded())))
        let gateLogger = logger
        let app = Application(
            router: router(),
            server: HTTPServerBuilder { responder in
                GatedHTTP1Channel(inner: HTTP1Channel(responder: responder, configuration: http1), limits: limits, logger: gateLogger)
            },
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: options.version.replacingOccurrences(of: " ", with: "/")),
            services: [CancelWatcher(supervisor: supervisor)],
            onServerRunning: { channel in listening(channel.localAddress?.port ?? 0) },
            logger: logger)
        try await app.runService()
        await supervisor.stopAll(reason: "the service stopped")
    }
}

/// While the service runs: applies cancel requests from other `serve` processes, gives back the
/// runs of dead ones and starts queued runs in free slots (``RunSupervisor/watch()``).
struct CancelWatcher: Service {
    let supervisor: RunSupervisor

    func run() async throws {
        await cancelWhenGracefulShutdown { await supervisor.watch() }
    }
}

/// Headers on every answer: no sniffing, no framing by other sites, no referrer leaking a feed's
/// secret address.
struct SecurityHeaders: RouterMiddleware {
    typealias Context = ServeContext

    func handle(_ request: Request, context: ServeContext, next: (Request, ServeContext) async throws -> Response) async throws -> Response {
        var response: Response
        do { response = try await next(request, context) } catch let error as any HTTPResponseError {
            // Error answers too: their JSON echoes what the request sent.
            response = try error.response(from: request, context: context)
        }
        response.headers[.init("X-Content-Type-Options")!] = "nosniff"
        response.headers[.init("X-Frame-Options")!] = "SAMEORIGIN"
        response.headers[.init("Referrer-Policy")!] = "no-referrer"
        return response
    }
}

/// Every error a route throws answered as JSON (``ServeError``): the store unavailable or not
/// answering within its deadline as 503 with `Retry-After` (the store's own words, which name its
/// address and files, go to the log), anything else unforeseen as 500, with its message; every
/// message without the server's folders (the one place an error's answer leaves the service).
struct ErrorAnswers: RouterMiddleware {
    typealias Context = ServeContext
    let hiding: PathHiding
    let logger: Logger

    func handle(_ request: Request, context: ServeContext, next: (Request, ServeContext) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as ServeError {
            var hidden = ServeError(error.status, hiding(error.message), field: error.field)
            hidden.headers = error.headers
            throw hidden
        } catch let error as HTTPResponseError {
            throw error
        } catch let error as StoreError {
            logger.error("the job store failed a request", metadata: ["request": "\(request.method) \(request.uri.path)", "error": "\(error.description)"])
            var unavailable = ServeError(.serviceUnavailable, "the job store cannot be reached or did not answer in time; try again in a few seconds")
            unavailable.headers[.retryAfter] = "5"
            throw unavailable
        } catch {
            throw ServeError(.internalServerError, hiding(FileError.describe(error)))
        }
    }
}
