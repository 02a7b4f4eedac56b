import Foundation
import LecternCore
import ZIPFoundation

/// An EPUB's zip container, read entirely in memory (nothing is ever extracted to disk) and
/// refused when hostile: an entry whose path is absolute or climbs out with `..` (zip slip), too
/// many entries, an entry or a total that would expand past the limits, or a compression ratio
/// only a zip bomb has. Sizes are enforced while inflating, so a header that lies gains nothing.
package final class EPUBArchive {
    /// Limits on what one EPUB may expand to.
    struct Limits {
        var entries = 100_000
        var entryBytes = 128 << 20
        var totalBytes = 1 << 30
        /// Uncompressed ÷ compressed, for entries over `ratioFloor` bytes.
        var ratio = 200
        var ratioFloor = 1 << 20
    }

    package let url: URL
    let limits: Limits
    private let archive: Archive
    private var entries: [String: Entry] = [:]
    /// The entries' paths in the order the archive holds them.
    package private(set) var paths: [String] = []
    private var inflated = 0

    /// Opens the EPUB at `url` with the default limits.
    package static func open(_ url: URL) throws -> EPUBArchive { try EPUBArchive(url: url) }

    init(url: URL, limits: Limits = Limits()) throws {
        self.url = url
        self.limits = limits
        // Only a regular file: a FIFO or device named as the book would block the zip reader.
        do { try LinkedFile(roots: [], maxBytes: Int.max).check(url) } catch {
            throw DocumentError(document: url.path, message: "cannot read the file: it \(error.reason)")
        }
        do { archive = try Archive(url: url, accessMode: .read) } catch {
            throw DocumentError(document: url.path, message: "not a readable zip archive (truncated or damaged): \(error)")
        }
        var declared = 0
        for entry in archive {
            let path = entry.path
            guard Self.isContained(path) else {
                throw DocumentError(document: url.path, message: "zip entry \"\(path)\" points outside the book (an absolute path or \"..\"); the EPUB is refused")
            }
            guard entries.count < limits.entries else {
                throw DocumentError(document: url.path, message: "more than \(limits.entries) zip entries; the EPUB is refused")
            }
            let size = Int(clamping: entry.uncompressedSize), packed = max(1, Int(clamping: entry.compressedSize))
            guard size <= limits.entryBytes else {
                throw DocumentError(document: url.path, message: "zip entry \"\(path)\" would expand to \(size) bytes (limit \(limits.entryBytes)); the EPUB is refused")
            }
            if size > limits.ratioFloor, size / packed > limits.ratio {
                throw DocumentError(document: url.path, message: "zip entry \"\(path)\" expands \(size / packed) times (\(packed) → \(size) bytes), as only a zip bomb does; the EPUB is refused")
            }
            declared += size
            guard declared <= limits.totalBytes else {
                throw DocumentError(document: url.path, message: "the entries would expand to more than \(limits.totalBytes) bytes; the EPUB is refused")
            }
            if entries[path] == nil { paths.append(path) }
            entries[path] = entry
        }
    }

    /// Whether a zip path stays inside the book.
    static func isContained(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.hasPrefix("\\"), !path.contains("\0") else { return false }
        if path.count >= 2, path[path.index(after: path.startIndex)] == ":" { return false }  // C:\…
        return !path.split(whereSeparator: { $0 == "/" || $0 == "\\" }).contains("..")
    }

    func contains(_ path: String) -> Bool { entries[path] != nil }

    /// An entry's declared uncompressed size (``data(_:)`` enforces it), to refuse a large one unread.
    func size(_ path: String) -> Int? { entries[path].map { Int(clamping: $0.uncompressedSize) } }

    /// The bytes of an entry, inflated with the limits enforced and the CRC checked.
    package func data(_ path: String) throws -> Data {
        guard let entry = entries[path] else {
            throw DocumentError(document: url.path, message: "\"\(path)\" is not in the EPUB")
        }
        let declared = Int(clamping: entry.uncompressedSize)
        var data = Data()
        data.reserveCapacity(min(declared, limits.entryBytes))
        let limit = min(declared, limits.entryBytes), budget = limits.totalBytes - inflated
        do {
            _ = try archive.extract(entry, skipCRC32: false) { chunk in
                data.append(chunk)
                if data.count > limit || data.count > budget { throw ExpansionError() }
            }
        } catch is ExpansionError {
            throw DocumentError(document: url.path, message: "zip entry \"\(path)\" expands past its declared size or the limits; the EPUB is refused")
        } catch {
            throw DocumentError(document: url.path, message: "zip entry \"\(path)\" cannot be read (damaged or truncated): \(error)")
        }
        inflated += data.count
        return data
    }

    private struct ExpansionError: Error {}
}
