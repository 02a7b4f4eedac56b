import ArgumentParser
import Foundation
import LecternCore

/// `lectern docs` (hidden; `make man` and `make docs` run it): writes what is generated from the
/// code — the README's manifest and command references (``CommandReference``), `docs/lectern-manifest.5`, and the finish of
/// `docs/lectern.1` (``ManualPage``) — or, with `--check`, names those that are stale.
struct DocsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "docs",
        abstract: "Write the documentation generated from the manifest's schema and the commands.",
        shouldDisplay: false
    )

    @Option(help: ArgumentHelp("The checkout whose README.md and docs/ to write.", valueName: "dir"))
    var root = "."

    @Option(help: ArgumentHelp("The date of a new lectern-manifest(5) (default: the one it has, else today).", valueName: "yyyy-mm-dd"))
    var date: String?

    @Flag(help: "Write nothing: fail, naming them, when files are not what would be written.")
    var check = false

    func run() throws {
        reportingErrors {
            let folder = URL(fileURLWithPath: root)
            var stale: [String] = []
            for (path, expected) in try Self.expectedFiles(in: folder, date: date) {
                let url = folder.appendingPathComponent(path)
                let current = try? String(contentsOf: url, encoding: .utf8)
                guard current != expected else { continue }
                if check { stale.append(path) } else { try AtomicFile.write(Data(expected.utf8), to: url); print("wrote \(url.path)") }
            }
            if !stale.isEmpty {
                throw FileError("stale: \(stale.joined(separator: ", ")) (regenerate with `make docs`)")
            }
        }
    }

    /// Each generated file's path in the checkout and the text it should have.
    static func expectedFiles(in folder: URL, date: String?) throws -> [(String, String)] {
        let readmeURL = folder.appendingPathComponent("README.md")
        let readme = try String(contentsOf: readmeURL, encoding: .utf8)
        guard let withManifest = ManifestReference.updatingREADME(readme) else {
            throw FileError("\(readmeURL.path) has no \(ManifestReference.endMarker) after \(ManifestReference.beginMarker)")
        }
        guard let newReadme = CommandReference.updatingREADME(withManifest) else {
            throw FileError("\(readmeURL.path) has no \(CommandReference.endMarker) after \(CommandReference.beginMarker)")
        }
        let manifestPage = "docs/lectern-manifest.5"
        let old = try? String(contentsOf: folder.appendingPathComponent(manifestPage), encoding: .utf8)
        let pageDate = date ?? old.flatMap(ManifestReference.manPageDate) ?? Self.today()
        let manualURL = folder.appendingPathComponent("docs/lectern.1")
        let manual = try String(contentsOf: manualURL, encoding: .utf8)
        return [("README.md", newReadme), (manifestPage, ManifestReference.manPage(date: pageDate)),
                ("docs/lectern.1", ManualPage.finished(manual))]
    }

    static func today() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.locale = Locale(identifier: "en_US_POSIX")
        return formatter.string(from: Date())
    }
}
