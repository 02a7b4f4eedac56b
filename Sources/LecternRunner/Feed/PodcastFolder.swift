import Foundation
import LecternCore
import LecternExport

/// A podcast feed as a static folder (`lectern feed`): `feed.xml`, `audio/ID.EXT` (the run's
/// audio, copied), `chapters/ID.json`, `transcripts/ID.vtt` and `cover.EXT`, ready to be served
/// as they are under the base URL.
///
/// Every file is written under a temporary name and synced, then all are renamed into place,
/// `feed.xml` last, so the feed never names a file that is not there; files of earlier feeds
/// that the new one does not name are removed after. The folder lists the files Lectern wrote
/// (``OwnedFolder``): only those are replaced or removed, and a feed folder whose `audio/`,
/// `chapters/` or `transcripts/`, `feed.xml` or `cover.*` holds anything else is refused.
public enum PodcastFolder {
    /// The folders of the feed's files, each Lectern's alone.
    static let subfolders = ["audio", "chapters", "transcripts"]

    /// Writes the feed of `publication` into `folder`.
    /// - returns: The files written, `feed.xml` last.
    /// - throws: ``ExportError`` when `folder` is or holds a file the job reads or the feed is
    ///   made from; `FileError` when a file cannot be written.
    @discardableResult
    public static func write(_ publication: PodcastPublication, baseURL: URL, to folder: URL) throws -> [URL] {
        try checkFolder(folder, publication: publication)
        let owned = owned(folder, publication: publication)
        try owned.check(subfolders: subfolders, scope: isOwnName)
        let earlier = owned.listed() ?? []
        // The list names what is there at every moment: the earlier feed's files and the new
        // one's while both may be there, the new one's once the earlier's are removed.
        try writeList(earlier.union(publication.paths), in: folder)
        var files: [AtomicFile] = []
        defer { files.forEach { $0.discard() } }
        func add(_ name: String, _ body: (AtomicFile) throws -> Void) throws {
            let file = try AtomicFile(folder.appendingPathComponent(name))
            files.append(file)
            try body(file)
            try file.prepare()
        }
        for path in publication.paths {
            switch try publication.resource(at: path, baseURL: baseURL) {
            case .file(let source, _)?: try add(path) { try copy(source, into: $0) }
            case .document(let data, _)?: try add(path) { try $0.write(data) }
            case nil: throw ExportError("the feed of \(publication.manifest.name) names \(path) but cannot make it")
            }
        }
        for file in files { try file.commit() }
        removeStale(in: folder, earlier: earlier.subtracting(publication.paths))
        try writeList(Set(publication.paths), in: folder)
        return files.map(\.url)
    }

    private static func writeList(_ paths: Set<String>, in folder: URL) throws {
        let list = try AtomicFile(folder.appendingPathComponent(OwnedFolder.listName))
        try list.write(OwnedFolder.list(Array(paths)))
        try list.commit()
    }

    /// The feed's folder as Lectern owns it: a folder without a list (written before feeds
    /// listed their files) is taken as an earlier feed's when it holds only files the new feed writes.
    static func owned(_ folder: URL, publication: PodcastPublication) -> OwnedFolder {
        let paths = Set(publication.paths)
        return OwnedFolder(folder, role: "the feed's folder") { paths.contains($0) }
    }

    /// The names at the feed folder's top that are the feed's: `feed.xml` and `cover.*` (it may
    /// hold other files, which the feed never touches).
    static func isOwnName(_ name: String) -> Bool { name == "feed.xml" || name.hasPrefix("cover.") }

    /// Refuses a folder that is, or holds, a file the job reads (its manifest, sources, cover,
    /// lexicons, Config files) or one the feed is made from (the audio, the sidecar): the feed's
    /// writes and clean-up must never reach an input.
    public static func checkFolder(_ folder: URL, publication: PodcastPublication) throws {
        let read = publication.sourceFiles.map { JobInput(url: $0, role: "the job's output \($0.lastPathComponent), which the feed is made from") }
        let inputs = InputFiles(publication.manifest.inputs + read)
        let path = FileIdentity.resolvedPath(folder), inside = path.hasSuffix("/") ? path : path + "/"
        if let entry = inputs.entries.first(where: { $0.resolvedPath == path || $0.resolvedPath.hasPrefix(inside) }) {
            throw ExportError(UserText.escapingControls(
                "the feed's folder \(folder.path) would hold \(entry.input.role), \(entry.input.url.path): "
                    + "choose a folder that holds none of the job's files"))
        }
    }

    /// Copies a file into `file` a block at a time (an audiobook may be larger than memory allows).
    private static func copy(_ source: URL, into file: AtomicFile) throws {
        let input: FileHandle
        do { input = try FileHandle(forReadingFrom: source) } catch {
            throw FileError("cannot read \(source.path): \(FileError.reason(error))")
        }
        defer { try? input.close() }
        while true {
            let block: Data?
            do { block = try input.read(upToCount: 1 << 20) } catch {
                throw FileError("cannot read \(source.path): \(FileError.reason(error))")
            }
            guard let block, !block.isEmpty else { break }
            try file.write(block)
        }
    }

    /// Removes the files an earlier feed wrote (its list named them) that the new one does not.
    private static func removeStale(in folder: URL, earlier: Set<String>) {
        for path in earlier where !path.contains("..") {
            let url = folder.appendingPathComponent(path)
            var info = stat()
            if lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG { unlink(url.path) }
        }
    }
}
