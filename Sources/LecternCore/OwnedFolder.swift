import Foundation

/// A folder Lectern writes whole or prunes (a book's chapter files, a podcast feed's audio): it
/// carries the list of the files Lectern wrote in it, `.lectern-files`, one relative path per
/// line. Lectern replaces or removes only what that list names; a folder that holds anything
/// else — a user's file, a folder, a link — is refused before any audio is made, naming the file,
/// so a run never deletes what it did not write.
public struct OwnedFolder: Sendable {
    /// The list's name inside the folder.
    public static let listName = ".lectern-files"

    /// The folder.
    public let url: URL
    /// What the folder is, for messages: "the chapters' folder".
    public let role: String
    /// Whether a file of a folder without a list looks like one an earlier Lectern wrote (written
    /// before folders carried their list): such a folder is taken as Lectern's when every file
    /// in it does.
    public let earlierName: @Sendable (String) -> Bool

    public init(_ url: URL, role: String, earlierName: @escaping @Sendable (String) -> Bool = { _ in false }) {
        self.url = url
        self.role = role
        self.earlierName = earlierName
    }

    /// The relative paths the folder's list names; nil when it has no list.
    public func listed() -> Set<String>? {
        let path = url.appendingPathComponent(Self.listName).path
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size < 16 << 20,
              let data = FileManager.default.contents(atPath: path),
              let text = String(data: data, encoding: .utf8) else { return nil }
        return Set(text.split(separator: "\n").map(String.init).filter { !$0.isEmpty })
    }

    /// The list naming `paths` (relative to the folder), for ``listName``.
    public static func list(_ paths: [String]) -> Data {
        Data(paths.sorted().map { $0 + "\n" }.joined().utf8)
    }

    /// Refuses the folder when anything in it was not written by Lectern: a file its list does
    /// not name (or, without a list, one that is not ``earlierName``), a folder, a link; and the
    /// folder's own name when it is a file or a link. A folder that does not exist passes.
    /// - parameters:
    ///   - subfolders: the folders inside it that Lectern writes into (a feed's `audio/`); their
    ///     files are checked one by one.
    ///   - scope: which names at the folder's top are Lectern's to check (a feed's folder may
    ///     hold other files, which it never touches); all of them unless given.
    /// - throws: ``FileError`` naming the first such path and what to do.
    public func check(subfolders: [String] = [], scope: (String) -> Bool = { _ in true }) throws {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return }
        let type = info.st_mode & S_IFMT
        guard type == S_IFDIR else {
            throw FileError("\(role) \(url.path) is \(type == S_IFLNK ? "a link" : "a file") that Lectern did not make: "
                            + "a run replaces that path whole, so move it elsewhere (or choose another `name` or `output`)")
        }
        let list = listed()
        for relative in try entries(subfolders: subfolders, scope: scope) {
            let path = url.appendingPathComponent(relative).path
            guard lstat(path, &info) == 0 else { continue }
            let kind = info.st_mode & S_IFMT
            let ours = kind == S_IFREG && (list.map { $0.contains(relative) } ?? earlierName(relative))
            if !ours {
                let what = kind == S_IFDIR ? "the folder" : kind == S_IFLNK ? "the link" : "the file"
                throw FileError("\(role) \(url.path) holds \(what) \(UserText.escapingControls(relative)), which Lectern did not write: "
                                + "a run replaces what is in that folder, so move it elsewhere (or choose another `name` or `output`)")
            }
        }
    }

    /// The paths in scope in the folder (relative), the list itself left out, with the files of
    /// the given subfolders in place of the subfolders; sorted, so the first refused is always the same.
    private func entries(subfolders: [String], scope: (String) -> Bool) throws -> [String] {
        let fm = FileManager.default
        var found: [String] = []
        let top: [String]
        do { top = try fm.contentsOfDirectory(atPath: url.path) } catch {
            throw FileError(cannot: "list", url.path, error)
        }
        for name in top.sorted() where name != Self.listName && (subfolders.contains(name) || scope(name)) {
            let inside = url.appendingPathComponent(name)
            var info = stat()
            if subfolders.contains(name), lstat(inside.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                let inner: [String]
                do { inner = try fm.contentsOfDirectory(atPath: inside.path) } catch {
                    throw FileError(cannot: "list", inside.path, error)
                }
                // Lectern's own temporaries (`.NAME.PID.tmp`), which the clean-up of dead runs' temporaries removes.
                found += inner.filter { !($0.hasPrefix(".") && $0.hasSuffix(".tmp")) }.sorted().map { "\(name)/\($0)" }
            } else {
                found.append(name)
            }
        }
        return found
    }
}
