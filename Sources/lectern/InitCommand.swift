import ArgumentParser
import Foundation
import LecternCore
import LecternDocuments
import LecternSpeech
import LecternText

/// `lectern init FILE…`: writes the manifest Lectern infers for documents, with comments saying
/// what it found (encoding, language, parts and chapters, what it leaves out), for the user to adjust.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a manifest for documents, saying in comments what Lectern found in them.",
        discussion: """
            Example: lectern init book.txt          # → book.yml; review with `lectern check --text book.yml`
                     lectern init ch*.md -o guide.yml
            """
    )

    @Argument(help: "Documents in reading order (plain text, Markdown, HTML, EPUB).")
    var documents: [String]

    @Option(name: .shortAndLong, help: "The manifest to write (default: NAME.yml in the current folder, after the first document).")
    var output: String?

    @Flag(help: "Replace the manifest if it exists.")
    var force = false

    func validate() throws {
        if documents.isEmpty { throw ValidationError("name at least one document") }
    }

    func run() throws {
        reportingErrors {
            try ArgumentCheck.requireFiles(documents, what: "document")
            let first = URL(fileURLWithPath: documents[0])
            let target = URL(fileURLWithPath: output ?? first.deletingPathExtension().lastPathComponent + ".yml").standardizedFileURL
            let sources = documents.map { URL(fileURLWithPath: $0).standardizedFileURL }
            try Self.refuseInput(target, documents: sources)
            guard force || !FileManager.default.fileExists(atPath: target.path) else {
                throw ValidationError("\(UserText.escapingControls(target.path)) exists; give --force to replace it, or -o another name")
            }
            let text = try ManifestDraft(documents: sources, manifest: target).yaml()
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: target.path, isDirectory: &isFolder), isFolder.boolValue {
                throw FileError("cannot write \(target.path): a folder has that name; give -o a file name")
            }
            try AtomicFile.write(Data(text.utf8), to: target)
            print("wrote \(target.path); review what will be heard with: lectern check --text \(target.path)")
        }
    }

    /// `init` never writes over a file it reads — a document, or a file of the `Config` folder the
    /// manifest would be merged over — `--force` or not, however the path names it (a link, `..`).
    static func refuseInput(_ target: URL, documents: [URL]) throws {
        let config = try ManifestLoader.findConfig(near: target.deletingLastPathComponent())
        var inputs = documents.map { JobInput(url: $0, role: "the document \($0.lastPathComponent)") }
        if let config { inputs += Manifest.configFiles(in: config) }
        if let input = InputFiles(inputs).input(at: target) {
            throw ValidationError("-o \(UserText.escapingControls(target.path)) is \(input.role) (\(UserText.escapingControls(input.url.path))), "
                                  + "which init reads; it never writes over a file it reads, --force or not: give -o another name")
        }
    }
}

/// The manifest `lectern init` writes: every document read with the defaults, comments saying
/// what was found in each, and every other key commented out (``ManifestReference/template()``).
struct ManifestDraft {
    let documents: [URL]
    let manifest: URL

    func yaml() throws -> String {
        let folder = manifest.deletingLastPathComponent()
        var comments: [String] = []
        var sources: [String] = []
        var metadata = BookMetadata()
        for document in documents {
            guard FileManager.default.fileExists(atPath: document.path) else { throw ValidationError("no such file: \(document.path)") }
            let path = Self.relativePath(document, from: folder)
            var source = Source(url: document, displayPath: path, format: Source.format(forExtension: document.pathExtension))
            source.origin = ManifestError(file: document.path, message: "")
            // What its bytes show it is (an HTML page named .txt is read, and described, as HTML).
            source = try DocumentReader.recognised([source])[0]
            let format = source.format
            let book = try DocumentReader().read([source])
            metadata = metadata.filling(from: book.metadata)
            let loaded = try ManifestLoader().load(document)
            let plan = try Segmenter(manifest: loaded.filling(from: book.metadata), lexicons: []).plan(book)
            comments.append("\(path) (\(format == .text ? "plain text" : format.rawValue)):")
            comments += book.notes.map { "  " + $0.replacingOccurrences(of: "\(path): ", with: "") }
            comments += book.warnings.map { "  warning: " + $0 }
            if let language = book.metadata.language { comments.append("  language: \(language) (from the document)") }
            let parts = Set(plan.chapters.compactMap(\.part)).count
            comments.append("  \(plan.chapters.count) chapter\(plan.chapters.count == 1 ? "" : "s")" + (parts > 0 ? " in \(parts) parts" : "") + ", \(plan.wordCount) words to read")
            for chapter in plan.chapters.prefix(3) { comments.append("    \(chapter.number). \(chapter.title)") }
            if plan.chapters.count > 3 { comments.append("    … \(plan.chapters.last!.number). \(plan.chapters.last!.title)") }
            var reasons: [SkipReason: (count: Int, words: Int)] = [:]
            for item in plan.skipped {
                reasons[item.reason, default: (0, 0)].count += 1
                reasons[item.reason, default: (0, 0)].words += WordTokenizer.count(in: item.text)
            }
            if !reasons.isEmpty { comments.append("  left out (listed in the sidecar's `skipped`):") }
            for (reason, n) in reasons.sorted(by: { $0.value.words > $1.value.words }) {
                comments.append("    \(n.count) × \(reason) (\(n.words) words)")
            }
            var lines = ["  - path: \(Self.quoted(path))"]
            switch format {
            case .text:
                if let encoding = try PlainTextReader.encodingToDeclare(document) {
                    lines += ["    encoding: \(Self.quoted(encoding))   # found: not UTF-8 (auto would guess and warn on every run)"]
                } else {
                    lines += ["    encoding: auto     # or utf-8, utf-16, windows-1252, iso-8859-1 …"]
                }
                lines += [
                          "    chapters: auto     # or none, or { heading: 'REGEX', subtitle: true }",
                          "    footnotes: chapter # or paragraph, skip",
                          "    # start_at: 'REGEX'  # start reading at the first line matching (start_after: after it); end_at: stop before"]
            case .markdown:
                lines += ["    encoding: auto", "    chapters: { level: 1 }   # headings at or above this level start chapters"]
            case .html:
                lines += ["    chapters: { level: 1 }   # headings at or above this level start chapters", "    footnotes: chapter"]
            case .epub:
                lines += ["    footnotes: chapter   # or paragraph, skip", "    nonlinear: skip      # or append"]
            }
            sources.append(lines.joined(separator: "\n"))
        }
        let name = documents[0].deletingPathExtension().lastPathComponent
        let language = metadata.language ?? "en"
        var out = """
            # Written by `lectern init` from what Lectern found; adjust it, review what a listener will hear with
            #   lectern check --text \(manifest.lastPathComponent)
            # and render it with `lectern run \(manifest.lastPathComponent)`.
            #

            """
        out += comments.map { "# " + $0 }.joined(separator: "\n") + "\n\n"
        out += "title: \(Self.quoted(metadata.title ?? name))\n"
        if let author = metadata.author { out += "author: \(Self.quoted(author))\n" }
        out += "sources:\n" + sources.joined(separator: "\n") + "\n"
        out += "voice: { name: \(language), rate: 0.5 }   # `lectern voices` lists the voices\n"
        out += "timings: [json]   # also: vtt, srt, html (a read-along page), epub (a narrated EPUB 3)\n"
        out += "\n" + ManifestReference.template()
        return out
    }

    /// `url`'s path relative to `folder` when it lies under the same root, else absolute.
    static func relativePath(_ url: URL, from folder: URL) -> String {
        let a = url.standardizedFileURL.pathComponents, b = folder.standardizedFileURL.pathComponents
        var common = 0
        while common < min(a.count, b.count), a[common] == b[common] { common += 1 }
        guard common > 1 else { return url.path }
        return (Array(repeating: "..", count: b.count - common) + a[common...]).joined(separator: "/")
    }

    /// A YAML scalar that reads back as exactly `s` (newlines and quotes in a file name included).
    static func quoted(_ s: String) -> String { ManifestLoader.yamlQuoted(s) }
}
