import Foundation

/// Which file a path names, as the file system sees it: the device and inode `stat` finds
/// (through symbolic links; a case variant on a case-insensitive file system, a hard link and a
/// `..` path all find the same one) and the path with every link and `..` resolved.
public struct FileIdentity: Sendable, Hashable {
    public var device: UInt64
    public var inode: UInt64

    /// The identity of the file at `path`, or nil when nothing is there.
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// `url`'s path with every symbolic link, `.` and `..` resolved: `realpath` of the deepest
    /// part that exists, the rest appended as written.
    public static func resolvedPath(_ url: URL) -> String {
        var existing = url.standardizedFileURL
        var rest: [String] = []
        while true {
            if let real = realpath(existing.path, nil) {
                defer { free(real) }
                var path = String(cString: real)
                for component in rest.reversed() { path = (path as NSString).appendingPathComponent(component) }
                return path
            }
            let parent = existing.deletingLastPathComponent()
            if parent.path == existing.path { return url.standardizedFileURL.path }
            rest.append(existing.lastPathComponent)
            existing = parent
        }
    }
}
