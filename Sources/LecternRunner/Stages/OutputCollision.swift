import Foundation
import LecternCore
import LecternExport

/// No output of a job may be one of its inputs: every file a run writes (the MP3, each timing
/// export, the read-along page, the narrated EPUB) and every temporary it writes or clears beside
/// them is compared with every file the job reads (``Manifest/inputs``, the documents' linked
/// files) by resolved path and by device and inode — so a symbolic or hard link, a `..` path or
/// a case variant on a case-insensitive file system is caught as well as the same name.
public enum OutputCollision {
    /// - throws: ``ManifestError`` at the manifest's `output` key (or `name`, when only that is given) naming
    ///   the output, the input it would replace and the key to change.
    public static func check(_ manifest: Manifest, linkedFiles: [URL] = []) throws {
        let inputs = InputFiles(manifest.inputs + linkedFiles.map { JobInput(url: $0, role: "a file the documents link (\($0.lastPathComponent))") })
        let workFolder = manifest.outputDirectory.appendingPathComponent("\(manifest.name).chunks")
        if manifest.split.writesChapters {
            // The chapters' folder is replaced whole: nothing in it may be an input.
            let folder = FileIdentity.resolvedPath(manifest.chaptersFolderURL) + "/"
            if let entry = inputs.entries.first(where: { $0.resolvedPath.hasPrefix(folder) }) {
                throw collision(manifest, output: manifest.chaptersFolderURL, format: nil, input: entry.input, temporary: false)
            }
        }
        for (output, format) in outputs(of: manifest) + [(workFolder, nil)] {
            if output != workFolder, let input = inputs.input(at: output) {
                throw collision(manifest, output: output, format: format, input: input, temporary: false)
            }
            let path = FileIdentity.resolvedPath(output)
            let folder = (path as NSString).deletingLastPathComponent
            let name = (path as NSString).lastPathComponent
            if let entry = inputs.entries.first(where: {
                ($0.resolvedPath as NSString).deletingLastPathComponent == folder && isTemporary(($0.resolvedPath as NSString).lastPathComponent, of: name)
            }) {
                throw collision(manifest, output: output, format: format, input: entry.input, temporary: true)
            }
        }
    }

    /// The files a run writes, with the timing format that asks for each (nil: the MP3).
    static func outputs(of manifest: Manifest) -> [(URL, TimingFormat?)] {
        let split: [(URL, TimingFormat?)] = manifest.split.writesChapters
            ? manifest.formats.map { (manifest.playlistURL(for: $0), nil) }
              + [(manifest.chaptersFolderURL, nil), (ChapterFiles.retiredName(of: manifest.chaptersFolderURL), nil)] : []
        return manifest.bookAudioURLs.map { ($0, nil) } + manifest.timings.map { (manifest.url(for: $0), $0) } + split
    }

    private static func collision(_ manifest: Manifest, output: URL, format: TimingFormat?, input: JobInput, temporary: Bool) -> ManifestError {
        let (outputPath, inputPath) = (output.path, input.url.path)
        let what = format.map { "the \($0.rawValue) export \(outputPath) (timings: \($0.rawValue))" }
            ?? (AudioFormat(rawValue: output.pathExtension) != nil ? "the audio \(outputPath)"
                : output.pathExtension == "m3u8" ? "the chapters' playlist \(outputPath) (split: chapters)"
                : output.lastPathComponent.hasSuffix("-chapters") ? "the chapters' folder \(outputPath) (split: chapters), replaced whole,"
                : "the run's work folder \(outputPath)")
        let verb = temporary ? "would clear \(inputPath), \(input.role), as its leftover temporary file" : "would replace \(input.role), \(inputPath)"
        let key = manifest.lines["output"] != nil ? "output" : manifest.lines["name"] != nil ? "name" : "output"
        let fix = manifest.lines[key] != nil ? "change `\(key)`" : "give the job an `output:` folder (or a `name:`) that holds none of its inputs"
        return ManifestError(file: manifest.file.path, line: manifest.lines[key], key: key,
                             message: UserText.escapingControls("\(what) \(verb); \(fix) so no output is an input"))
    }

    /// Whether `entry` is a temporary a run writes beside `name` and clears once its process is
    /// gone (``AtomicFile/temporaryOwner(of:)``: `.NAME.PID.RANDOM.tmp`, or `.NAME.PID.tmp`).
    private static func isTemporary(_ entry: String, of name: String) -> Bool {
        AtomicFile.temporaryOwner(of: entry)?.name == name
    }
}
