import ArgumentParser
import Foundation
import Logging
import LecternRunner
import LecternStore

/// `lectern daemon`: runs the manifests of a folder on their schedules and when their files
/// change, until SIGTERM or SIGINT; SIGHUP reloads the manifests and configuration.
struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Run every manifest in a folder on its schedule and when its files change.",
        discussion: """
            A manifest takes part with `schedule:` (a cron expression, read in `timezone:`), \
            `watch: true`, or both; see the README. Logs go to stderr, one line each with a syslog \
            priority prefix that journald understands. SIGTERM or SIGINT stop it cleanly (running \
            jobs are cancelled and recorded as such); SIGHUP reloads every manifest. Started again \
            (after a stop or a crash), it first resumes the runs that were under way, from their \
            finished chunks. A manifest it cannot load is logged once per version and shown by \
            `lectern status`.

            Example: lectern daemon --jobs Jobs --max-concurrent 2
            """
    )

    @Option(help: "The folder of job manifests (*.yml, *.yaml).")
    var jobs = "Jobs"

    @Option(help: "How many jobs may render at the same time.")
    var maxConcurrent = 1

    @Option(help: "Synthesis worker processes per run (default: one per core).")
    var workers: Int?

    @Option(help: "Seconds a watched file must stay unchanged before its job runs.")
    var debounce: Double = 2

    @Option(help: "Seconds between looks at the folder and the watched files.")
    var poll: Double = 1

    @Option(help: ArgumentHelp("Shift the daemon's clock by this many seconds (for tests).", visibility: .hidden))
    var clockOffset: Double = 0

    @Flag(help: "Log every step (debug level).")
    var verbose = false

    @OptionGroup var store: StoreOptions

    func validate() throws {
        if maxConcurrent < 1 { throw ValidationError("--max-concurrent must be at least 1") }
        if let workers, workers < 1 { throw ValidationError("--workers must be at least 1") }
        if debounce < 0 || poll <= 0 { throw ValidationError("--debounce must be 0 or more and --poll more than 0") }
    }

    func run() async throws {
        await reportingErrors {
            let folder = URL(fileURLWithPath: jobs).standardizedFileURL
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("--jobs \(jobs) is not a folder")
            }
            let level: Logger.Level = verbose ? .debug : .info
            LoggingSystem.bootstrap { _ in
                var handler = JournalLogHandler()
                handler.logLevel = level
                return handler
            }
            let logger = Logger(label: "lectern.daemon")
            let opened = try await store.open(near: folder)
            var options = Daemon.Options(jobs: folder)
            options.sharedChunks = opened.shared
            options.maxConcurrent = maxConcurrent
            options.workers = workers
            options.debounce = debounce
            options.pollInterval = poll
            options.clockOffset = clockOffset
            let daemon = Daemon(store: opened.store, logger: logger, options: options)
            var sources: [DispatchSourceSignal] = []
            for number in [SIGTERM, SIGINT, SIGHUP] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler {
                    if number == SIGHUP {
                        daemon.reload()
                    } else {
                        logger.notice("stopping", metadata: ["signal": "\(number == SIGTERM ? "SIGTERM" : "SIGINT")"])
                        daemon.stop()
                    }
                }
                source.resume()
                sources.append(source)
            }
            signal(SIGXFSZ, SIG_IGN)
            try await daemon.run()
            sources.forEach { $0.cancel() }
        }
    }
}
