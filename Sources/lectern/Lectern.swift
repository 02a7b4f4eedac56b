import ArgumentParser
import Foundation
import LecternCore
import LecternStore
#if PostgreSQL
import LecternPostgres
#endif

/// The `lectern` command: batch narration of documents into chaptered MP3 audiobooks.
@main
struct Lectern: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lectern",
        abstract: "Narrate documents into chaptered MP3 audiobooks with word timings.",
        discussion: """
            Example:
              lectern run Jobs/alice.yml    # writes out/alice/alice.mp3 and out/alice/alice.timings.json
            """,
        version: LecternVersion.description,
        subcommands: Lectern.commands
    )

    /// Every command; `serve` and `token` only in a build with the Serve trait.
    static var commands: [ParsableCommand.Type] {
        var commands: [ParsableCommand.Type] = [RunCommand.self, CheckCommand.self, InitCommand.self, StatusCommand.self, FeedCommand.self, DaemonCommand.self,
                                                GCCommand.self, VoicesCommand.self, SayCommand.self, WorkerCommand.self, DocsCommand.self]
        #if Serve
        commands += [ServeCommand.self, TokenCommand.self]
        #endif
        return commands
    }

    /// Refuses what the argument parser would misread before it reads it (``ArgumentCheck``),
    /// with exit status 64, then runs the command.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let problem = ArgumentCheck.problem(in: arguments) {
            FileHandle.standardError.write(Data("lectern: error: \(problem)\n".utf8))
            Glibc.exit(ArgumentCheck.usageStatus)
        }
        await main(arguments)
    }
}

/// Options shared by commands that use the job store: which store (SQLite on this host, or
/// PostgreSQL shared by hosts) and which chunk folder the hosts share.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("store"), help: ArgumentHelp(
        "The job store: sqlite:PATH, or postgres://USER@HOST[:PORT]/DB (shared by hosts).",
        discussion: "Default: $LECTERN_STORE; else `store:` in Config/defaults.yml; else a SQLite store: $LECTERN_DB, or .lectern/lectern.sqlite in the nearest folder, from the manifest's (or the current one) upwards, that has a .lectern folder, or $XDG_STATE_HOME/lectern (~/.local/state/lectern). This host's chunk cache is the cache folder there. A PostgreSQL address may add ?timeout=SECONDS: the deadline of each operation on the store (default 30).",
        valueName: "url"))
    var address: String?

    @Option(name: .customLong("db"), help: ArgumentHelp("A SQLite job store file (the same as --store sqlite:PATH).", valueName: "path"))
    var database: String?

    @Option(name: .customLong("chunks"), help: ArgumentHelp(
        "The chunk folder every host reaches (NFS or the like), needed with a PostgreSQL store; with a SQLite store, chunks then go through its queue too.",
        discussion: "Default: $LECTERN_CHUNKS; else `chunks:` in Config/defaults.yml.",
        valueName: "dir"))
    var chunks: String?

    /// The store and shared chunk folder for commands that name no manifest: found from the current folder.
    ///
    /// - parameter rendering: false for a command that renders nothing (`token`): a shared
    ///   store then needs no chunk folder.
    func open(rendering: Bool = true) async throws -> OpenedStore {
        try await open(near: URL(fileURLWithPath: FileManager.default.currentDirectoryPath), rendering: rendering)
    }

    /// The store and shared chunk folder for a job whose manifest is in `folder`.
    func open(near folder: URL, environment: [String: String] = ProcessInfo.processInfo.environment,
              rendering: Bool = true) async throws -> OpenedStore {
        let host = try HostDefaults.load(near: folder)
        func given(_ value: String?) -> String? { value.flatMap { $0.isEmpty ? nil : $0 } }
        let text = given(address) ?? given(database).map { "sqlite:" + $0 } ?? given(environment["LECTERN_STORE"])
            ?? (given(environment["LECTERN_DB"]) == nil ? given(host.store) : nil)
        // This host's own folder: beside a SQLite store, else where a SQLite store would be.
        let local = StoreLocation.resolve(explicit: nil, start: folder, environment: environment)
        let store: any JobStore
        if let text {
            let parsed = try StoreAddress(parsing: text)
            #if PostgreSQL
            store = try await parsed.open(localFolder: local.deletingLastPathComponent())
            #else
            store = try await parsed.open(localFolder: local.deletingLastPathComponent(), postgres: nil)
            #endif
        } else {
            store = try SQLiteJobStore(url: local)
        }
        let chunkFolder = given(chunks) ?? given(environment["LECTERN_CHUNKS"]) ?? given(host.chunks)
        if rendering && store.isShared && chunkFolder == nil {
            throw ValidationError("the store \(store.name) is shared by hosts: name the chunk folder they all reach with --chunks DIR "
                                  + "(or $LECTERN_CHUNKS, or `chunks:` in Config/defaults.yml)")
        }
        return OpenedStore(store: store, shared: chunkFolder.map { SharedChunkDirectory(directory: URL(fileURLWithPath: $0)) })
    }
}

/// A job store as a command opened it, with the chunk folder hosts share (nil: chunks stay on
/// this host).
struct OpenedStore {
    let store: any JobStore
    let shared: (any ChunkStore)?
}

/// Seconds as `m:ss`, or `h:mm:ss` from an hour on.
func clock(_ seconds: Double) -> String {
    let s = Int(seconds.rounded())
    return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
}

/// Prints an error as one line on stderr and exits with status 1.
func fail(_ error: Any) -> Never {
    printError(error)
    exit(1)
}

/// Prints an error as one line on stderr (a newline in a file name shown as `\n`).
func printError(_ error: Any) {
    let text = (error as? Error).map(FileError.describe) ?? "\(error)"
    let message = UserText.escapingControls(text)
    FileHandle.standardError.write(Data("lectern: error: \(message)\n".utf8))
}

/// Runs `body`, turning any error into a one-line message and a non-zero exit.
func reportingErrors(_ body: () throws -> Void) {
    do { try body() } catch {
        exit(dueTo: error)
    }
}

/// Runs `body`, which uses the job store, turning any error into a one-line message and a
/// non-zero exit.
func reportingErrors(_ body: () async throws -> Void) async {
    do { try await body() } catch {
        exit(dueTo: error)
    }
}

/// Exits as `error` asks: its exit code, or a one-line message and status 1 (64 for a misused
/// command line).
func exit(dueTo error: Error) -> Never {
    switch error {
    case let error as ExitCode: exit(error.rawValue)
    case let error as ValidationError: fail(error.message)
    case let error as ArgumentError:
        printError(error)
        exit(ArgumentCheck.usageStatus)
    default: fail(error)
    }
}
