import Foundation

/// A file or folder that cannot be read, written or made: `cannot <action> <path>: <reason>`,
/// with the system's own words for the reason (never Foundation's `NSCocoaErrorDomain` text).
public struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }

    /// `cannot <action> <path>: <reason>`, e.g. `FileError(cannot: "create the folder", path, error)`.
    public init(cannot action: String, _ path: String, _ error: Error) {
        message = "cannot \(action) \(path): \(Self.reason(error))"
    }
    public var description: String { message }

    /// The system's own words for an I/O error ("No space left on device", "File too large"),
    /// from the POSIX error under Foundation's, else Foundation's description, else the error's own.
    public static func reason(_ error: Error) -> String {
        if let known = error as? FileError { return known.message }
        let ns = error as NSError
        for candidate in [ns, ns.userInfo[NSUnderlyingErrorKey] as? NSError].compactMap({ $0 }) where candidate.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(candidate.code)))
        }
        guard ns.domain == NSCocoaErrorDomain else { return "\(error)" }
        if ns.code == CocoaError.fileWriteOutOfSpace.rawValue { return String(cString: strerror(ENOSPC)) }
        return ns.localizedDescription
    }

    /// An error as one line for a user: Lectern's own errors as they are; a system error that
    /// escaped without context as `cannot access <path>: <reason>`, never Foundation's raw text.
    public static func describe(_ error: Error) -> String {
        let ns = error as NSError
        guard ns.domain == NSCocoaErrorDomain || ns.domain == NSPOSIXErrorDomain else { return "\(error)" }
        let path = ns.userInfo[NSFilePathErrorKey] as? String ?? (ns.userInfo[NSURLErrorKey] as? URL)?.path
        return "cannot access \(path ?? "a file"): \(reason(error))"
    }
}
