#if Serve
import ArgumentParser
import Foundation
import Logging
import LecternServe
import LecternStore

/// `lectern serve`: the HTTP API, dashboard and podcast feeds (a build with the Serve trait).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve narration over HTTP: an API, a dashboard in the browser and a podcast feed per book.",
        discussion: """
            Jobs, their uploads and outputs live in --data; who owns them, their runs and the API \
            tokens in the job store (only a token's SHA-256 is kept). Create a token first with \
            `lectern token add NAME --owner OWNER`. With a PostgreSQL store, several `serve` \
            processes that reach the same --data folder serve the same jobs. Runs waiting for a \
            slot are kept in the job store: they start after a restart, in order, on any `serve` \
            of the store. SIGTERM or SIGINT stop it; running jobs are cancelled and recorded as \
            such. Killed (`kill -9`, a crash), its runs are recorded as interrupted when a `serve` \
            starts again on the store, and resumed from their chunks. It speaks plain HTTP: put \
            it behind a reverse proxy for TLS (README, "Serving over HTTPS").

            Example: lectern serve --data /srv/lectern --port 8080
            """,
        subcommands: []
    )

    @Option(help: "The service's data folder: jobs, uploads, outputs.")
    var data = "lectern-data"

    @Option(help: "The address to listen on (0.0.0.0 for every interface).")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port, printed on start).")
    var port = 8080

    @Option(help: "The largest upload accepted, in megabytes.")
    var maxUploadMb = 200

    @Option(help: "Jobs (and runs) a token's owner may create per minute.")
    var jobsPerMinute = 10.0

    @Option(help: "How many jobs may render at the same time in this process (the rest wait in order, in the job store).")
    var maxConcurrent = 1

    @Option(help: "Synthesis worker processes per run (default: one per core; 0 with --chunks: `lectern worker`s render every chunk).")
    var workers: Int?

    @Option(help: ArgumentHelp("The service's address as clients reach it, for the podcast feeds' links (e.g. https://narration.example.org).",
                               valueName: "url"))
    var publicUrl: String?

    @Option(help: ArgumentHelp("Seconds a connection may stay silent (headers not all sent, an upload that stops, idle between requests) before it is closed.",
                               valueName: "seconds"))
    var idleTimeout = 30.0

    @Option(help: "Connections held open at once (default: half the open-file limit, at most 10000); more are answered 503 and closed.")
    var maxConnections: Int?

    @Option(help: "Connections held open at once from one client address (behind a reverse proxy, every client is the proxy's address).")
    var maxConnectionsPerClient = 64

    @Flag(help: "Log every request (debug level).")
    var verbose = false

    @OptionGroup var store: StoreOptions

    func validate() throws {
        if !(0...65535).contains(port) { throw ValidationError("--port must be from 0 to 65535") }
        if maxUploadMb < 1 { throw ValidationError("--max-upload-mb must be at least 1") }
        if jobsPerMinute <= 0 { throw ValidationError("--jobs-per-minute must be more than 0") }
        if maxConcurrent < 1 { throw ValidationError("--max-concurrent must be at least 1") }
        if !(idleTimeout >= 0.1 && idleTimeout <= 86_400) { throw ValidationError("--idle-timeout must be from 0.1 to 86400 seconds") }
        if let maxConnections, maxConnections < 1 { throw ValidationError("--max-connections must be at least 1") }
        if maxConnectionsPerClient < 1 { throw ValidationError("--max-connections-per-client must be at least 1") }
        if let workers, workers < 0 { throw ValidationError("--workers must be 0 or more") }
        if let publicUrl, URL(string: publicUrl)?.scheme.map({ ["http", "https"].contains($0) }) != true {
            throw ValidationError("--public-url must be an http:// or https:// address")
        }
    }

    func run() async throws {
        await reportingErrors {
            let folder = URL(fileURLWithPath: data).standardizedFileURL
            let level: Logger.Level = verbose ? .debug : .info
            LoggingSystem.bootstrap { _ in
                var handler = JournalLogHandler()
                handler.logLevel = level
                return handler
            }
            let logger = Logger(label: "lectern.serve")
            let opened = try await store.open(near: folder)
            if workers == 0 && opened.shared == nil {
                throw ValidationError("--workers 0 needs a chunk folder the workers share (--chunks DIR): else nothing would render")
            }
            var options = LecternService.Options(dataFolder: folder)
            options.host = host
            options.port = port
            options.maxUploadBytes = maxUploadMb << 20
            options.jobsPerMinute = jobsPerMinute
            options.maxConcurrentRuns = maxConcurrent
            options.workers = workers
            options.sharedChunks = opened.shared
            options.publicURL = publicUrl.flatMap(URL.init(string:))
            options.version = LecternVersion.description
            options.idleTimeout = idleTimeout
            options.maxConnections = maxConnections
            options.maxConnectionsPerClient = maxConnectionsPerClient
            signal(SIGXFSZ, SIG_IGN)
            let service = LecternService(store: opened.store, options: options, logger: logger)
            try await service.run { port in
                // One line a script can wait for.
                FileHandle.standardOutput.write(Data(
                    "lectern serve: listening on http://\(host):\(port) (data \(folder.path), store \(opened.store.name))\n".utf8))
            }
        }
    }
}

/// `lectern token`: the API tokens of `lectern serve`.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Add, list and revoke the API tokens of `lectern serve`.",
        discussion: "Example: lectern token add alice-laptop --owner alice",
        subcommands: [Add.self, List.self, Revoke.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a token and print its secret (shown only this once; the store keeps its SHA-256).",
            discussion: "Example: lectern token add alice-laptop --owner alice")

        @Argument(help: "The token's name (for listing and revoking).")
        var name: String

        @Option(help: "Whose jobs the token sees and changes (default: the token's name).")
        var owner: String?

        @Flag(help: "An admin's token: sees and changes every job.")
        var admin = false

        @OptionGroup var store: StoreOptions

        func validate() throws {
            for (what, value) in [("name", name), ("--owner", owner ?? name)] {
                guard !value.isEmpty, value.count <= 64, value.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || "-_.@".unicodeScalars.contains($0) }) else {
                    throw ValidationError("the token's \(what) may hold letters, digits, -, _, . and @ (at most 64)")
                }
            }
        }

        func run() async throws {
            await reportingErrors {
                let opened = try await store.open(rendering: false)
                print(try await APIToken.create(name: name, owner: owner ?? name, admin: admin, in: opened.store))
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the tokens (names, owners, admin), never their secrets.",
                                                        discussion: "Example: lectern token list")
        @OptionGroup var store: StoreOptions

        func run() async throws {
            await reportingErrors {
                let opened = try await store.open(rendering: false)
                for token in try await opened.store.tokens() {
                    print("\(token.name)  owner \(token.owner)\(token.admin ? "  admin" : "")  created \(ISO8601DateFormatter().string(from: token.createdAt))")
                }
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a token: it stops working within two seconds.",
                                                        discussion: "Example: lectern token revoke alice-laptop")
        @Argument(help: "The token's name.")
        var name: String

        @OptionGroup var store: StoreOptions

        func run() async throws {
            await reportingErrors {
                let opened = try await store.open(rendering: false)
                guard try await opened.store.revokeToken(name: name) else { throw ValidationError("there is no token named \(name)") }
            }
        }
    }
}
#endif
