import ArgumentParser
import Foundation
import LecternCore
import LecternStore

/// The `lectern` command: batch narration of documents into chaptered MP3 audiobooks.
@main
struct Lectern: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lectern",
        abstract: "Narrate documents into chaptered MP3 audiobooks with word timings.",
        discussion: """
            Example:
              lectern run Jobs/alice.yml    # writes out/alice/alice.mp3 and out/alice/alice.timings.json
            """,
        version: LecternVersion.description,
        subcommands: [RunCommand.self, CheckCommand.self, InitCommand.self, StatusCommand.self, DaemonCommand.self, GCCommand.self, VoicesCommand.self, SayCommand.self, WorkerCommand.self]
    )
}

/// Options shared by commands that use the job store.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: ArgumentHelp(
        "The job store.",
        discussion: "Default: $LECTERN_DB; else .lectern/lectern.sqlite in the nearest folder, from the manifest's (or the current one) upwards, that has a .lectern folder; else $XDG_STATE_HOME/lectern (~/.local/state/lectern). The chunk cache is the cache folder beside the store."))
    var database: String?

    /// The store for commands that name no manifest: found from the current folder.
    var url: URL { url(near: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) }

    /// The store for a job whose manifest is in `folder`.
    func url(near folder: URL) -> URL { StoreLocation.resolve(explicit: database, start: folder) }
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

/// Prints an error as one line on stderr.
func printError(_ error: Any) {
    let text = (error as? Error).map(FileError.describe) ?? "\(error)"
    let message = text.split(separator: "\n").joined(separator: " ")
    FileHandle.standardError.write(Data("lectern: error: \(message)\n".utf8))
}

/// Runs `body`, turning any error into a one-line message and a non-zero exit.
func reportingErrors(_ body: () throws -> Void) {
    do { try body() } catch let error as ExitCode { exit(error.rawValue) } catch let error as ValidationError { fail(error.message) } catch { fail(error) }
}
