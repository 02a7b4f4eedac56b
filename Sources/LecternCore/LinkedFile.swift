import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one way Lectern opens a file a document names — a linked stylesheet or pronunciation
/// lexicon, an image — and a source document itself: only a regular file, never a device, FIFO,
/// socket or folder (so nothing can block a reader), never past a size limit, and, for a link,
/// only inside its allowed folders.
///
/// The path is resolved first, every symbolic link and `..` followed (as `realpath` would, but
/// also for a path that does not exist), and checked against the allowed folders BEFORE anything
/// is opened. A link whose resolved path lies outside them is refused with the same words whether
/// or not something is there, so a refusal never tells whether a path exists. The resolved path
/// is opened with `O_NOFOLLOW | O_NONBLOCK`, and the open descriptor is checked again (`fstat`:
/// a regular file; `/proc/self/fd`: still inside the folders) before a byte is read.
public struct LinkedFile: Sendable {
    /// Why a file was not read: the words finish a sentence about the file as written
    /// (`the stylesheet "x.css" ` + `lies outside the document's folder`).
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Kind: Sendable, Equatable { case outside, missing, notRegular, tooLarge, unreadable }
        public var kind: Kind
        public var reason: String
        public var description: String { reason }

        public init(kind: Kind, reason: String) {
            self.kind = kind
            self.reason = reason
        }
    }

    /// The folders a link may point into (resolved); empty: anywhere (a source the user named).
    public let roots: [String]
    /// The most bytes read; a larger file is refused unread.
    public let maxBytes: Int

    /// - parameters:
    ///     - roots: The folders a linked file must lie in; empty for a file the user named
    ///       (a source), which need only be a regular file.
    ///     - maxBytes: The largest file read.
    public init(roots: [URL], maxBytes: Int) {
        var resolved: [String] = []
        for root in roots {
            let path = Self.resolve(root.standardizedFileURL.path).path
            if !resolved.contains(path) { resolved.append(path) }
        }
        self.roots = resolved
        self.maxBytes = maxBytes
    }

    /// The one refusal for a link outside the folders, whether or not something is there.
    public static let outsideReason = "lies outside the book's folders (only files in the manifest's folder or the document's, or in folders under them, are read)"

    /// Reads the file at `url` whole.
    ///
    /// - throws: ``Refusal`` when the file lies outside the allowed folders, does not exist, is not
    ///   a regular file, is larger than ``maxBytes`` or cannot be read.
    public func read(_ url: URL) throws(Refusal) -> Data {
        let fd = try openChecked(url)
        defer { close(fd) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Refusal(kind: .unreadable, reason: "cannot be read (\(String(cString: strerror(errno))))")
            }
            if n == 0 { return data }
            data.append(contentsOf: buffer[0..<n])
            if data.count > maxBytes { throw tooLarge() }
        }
    }

    /// Reads at most `count` bytes from the start of the file at `url` (to recognise what it is).
    ///
    /// - throws: ``Refusal`` as ``read(_:)`` does, but never for its size.
    public func head(_ url: URL, count: Int) throws(Refusal) -> Data {
        let fd = try openChecked(url, checkingSize: false)
        defer { close(fd) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: min(count, 1 << 16))
        while data.count < count {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, min($0.count, count - data.count)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Refusal(kind: .unreadable, reason: "cannot be read (\(String(cString: strerror(errno))))")
            }
            if n == 0 { break }
            data.append(contentsOf: buffer[0..<n])
        }
        return data
    }

    /// Checks the file at `url` may be read (inside the folders, a regular file, not too large)
    /// without reading it, for a reader that opens it itself (a zip library).
    public func check(_ url: URL) throws(Refusal) {
        close(try openChecked(url))
    }

    /// Opens the file read-only, checked; the caller closes the descriptor.
    private func openChecked(_ url: URL, checkingSize: Bool = true) throws(Refusal) -> Int32 {
        let (path, exists) = Self.resolve(url.standardizedFileURL.path)
        guard isInside(path) else { throw Refusal(kind: .outside, reason: Self.outsideReason) }
        guard exists else { throw Refusal(kind: .missing, reason: "does not exist") }
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            switch errno {
            case ENOENT: throw Refusal(kind: .missing, reason: "does not exist")
            case ELOOP: throw Refusal(kind: .notRegular, reason: Self.notRegularReason)
            default: throw Refusal(kind: .unreadable, reason: "cannot be read (\(String(cString: strerror(errno))))")
            }
        }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw Refusal(kind: .notRegular, reason: Self.notRegularReason)
        }
        // The file opened is the one checked: a link swapped in meanwhile is caught here.
        if !roots.isEmpty, let opened = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)"), !isInside(opened) {
            close(fd)
            throw Refusal(kind: .outside, reason: Self.outsideReason)
        }
        if checkingSize, Int(info.st_size) > maxBytes {
            close(fd)
            throw tooLarge()
        }
        // Reads block from here on, as for any regular file.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// The one refusal for what is not a regular file.
    public static let notRegularReason = "is not a regular file (a folder, device, FIFO or socket is never read)"

    private func tooLarge() -> Refusal {
        Refusal(kind: .tooLarge, reason: "is larger than \(maxBytes) bytes, the most read")
    }

    private func isInside(_ path: String) -> Bool {
        roots.isEmpty || roots.contains { root in root == "/" || path == root || path.hasPrefix(root + "/") }
    }

    /// `path` (absolute) with every symbolic link, `.` and `..` resolved, and whether it exists:
    /// for a path that does not exist, its deepest existing part resolved and the rest applied as
    /// written; a link loop counts as missing.
    static func resolve(_ path: String) -> (path: String, exists: Bool) {
        var pending = Array(path.split(separator: "/", omittingEmptySubsequences: true).map(String.init).reversed())
        var current: [String] = []
        var links = 0
        var exists = true
        func joined() -> String { "/" + current.joined(separator: "/") }
        while let part = pending.popLast() {
            if part == "." { continue }
            if part == ".." { _ = current.popLast(); continue }
            guard exists else { current.append(part); continue }
            let candidate = current.isEmpty ? "/" + part : joined() + "/" + part
            var info = stat()
            guard lstat(candidate, &info) == 0 else {
                exists = false
                current.append(part)
                continue
            }
            guard (info.st_mode & S_IFMT) == S_IFLNK else { current.append(part); continue }
            links += 1
            guard links <= 40, let target = try? FileManager.default.destinationOfSymbolicLink(atPath: candidate) else {
                exists = false
                current.append(part)
                continue
            }
            if target.hasPrefix("/") { current = [] }
            pending.append(contentsOf: target.split(separator: "/", omittingEmptySubsequences: true).map(String.init).reversed())
        }
        return (joined(), exists)
    }
}
