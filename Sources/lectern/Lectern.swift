import ArgumentParser
import Foundation
import LecternCore

/// The `lectern` command: batch narration of documents into chaptered MP3 audiobooks.
@main
struct Lectern: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lectern",
        abstract: "Narrate documents into chaptered MP3 audiobooks with word timings.",
        discussion: """
            Example:
              lectern run Jobs/alice.yml        # → out/alice/alice.mp3, out/alice/alice.timings.json
            """,
        subcommands: [RunCommand.self, CheckCommand.self, InitCommand.self, StatusCommand.self, DaemonCommand.self, GCCommand.self, VoicesCommand.self, SayCommand.self, WorkerCommand.self]
    )
}

/// Options shared by commands that use the job store.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: "The job store (default: $LECTERN_DB, else .lectern/lectern.sqlite in the current folder).")
    var database: String?

    var url: URL {
        if let database { return URL(fileURLWithPath: database) }
        if let env = ProcessInfo.processInfo.environment["LECTERN_DB"], !env.isEmpty { return URL(fileURLWithPath: env) }
        return URL(fileURLWithPath: ".lectern/lectern.sqlite")
    }
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
