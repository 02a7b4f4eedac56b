import Foundation

/// A job's inputs, each known by its resolved path and its device and inode (computed once), to
/// ask whether a path names one of them.
public struct InputFiles: Sendable {
    public struct Entry: Sendable {
        public let input: JobInput
        public let resolvedPath: String
        public let identity: FileIdentity?
    }
    public let entries: [Entry]

    public init(_ inputs: [JobInput]) {
        entries = inputs.map { Entry(input: $0, resolvedPath: FileIdentity.resolvedPath($0.url), identity: FileIdentity(path: $0.url.path)) }
    }

    /// The input `url` names — by its resolved path, or by device and inode (a hard link, a case
    /// variant on a case-insensitive file system) — or nil.
    public func input(at url: URL) -> JobInput? {
        let path = FileIdentity.resolvedPath(url), identity = FileIdentity(path: url.path)
        return entries.first { $0.resolvedPath == path || (identity != nil && $0.identity == identity) }?.input
    }
}
