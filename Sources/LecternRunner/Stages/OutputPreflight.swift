import Foundation
import LecternCore
import LecternExport

/// What `run` needs of the output folder, checked before any audio is made — by `check` too, so
/// a manifest that `check` passes does not fail at the end of a long render: no output is an
/// input of the job (``OutputCollision``), the folder is a folder (or can be made inside one), it
/// can be written, no output name is taken by a folder, and the chapters' folder a run replaces
/// whole holds nothing Lectern did not write (``OwnedFolder``).
public enum OutputPreflight {
    /// - parameter book: The documents as read, for the files they link (stylesheets, lexicons).
    /// - throws: ``ManifestError`` when an output would replace an input; ``FileError`` naming
    ///   the path and what is wrong with it.
    public static func validate(_ manifest: Manifest, book: Book) throws {
        try OutputCollision.check(manifest, linkedFiles: book.linkedFiles)
        let folder = manifest.outputDirectory.standardizedFileURL
        var existing = folder
        while !exists(existing.path) {
            let parent = existing.deletingLastPathComponent()
            if parent.path == existing.path { break }
            existing = parent
        }
        guard isDirectory(existing.path) else {
            throw FileError("cannot create the output folder \(folder.path): \(existing.path) is a file, not a folder (change `output` in \(manifest.file.path))")
        }
        if access(existing.path, W_OK | X_OK) != 0 {
            let reason = String(cString: strerror(errno))
            let what = existing == folder ? "write in the output folder" : "create the output folder \(folder.path) in"
            throw FileError("cannot \(what) \(existing.path): \(reason)")
        }
        for output in manifest.outputURLs where output != manifest.chaptersFolderURL && isDirectory(output.path) {
            throw FileError("cannot write \(output.path): a folder has that name")
        }
        if manifest.split.writesChapters { try ChapterFiles.owned(manifest.chaptersFolderURL).check() }
    }

    /// Makes the output folder, as ``validate(_:)`` found it can be made.
    public static func createFolder(_ manifest: Manifest) throws {
        let folder = manifest.outputDirectory
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw FileError(cannot: "create the output folder", folder.path, error)
        }
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }
}
