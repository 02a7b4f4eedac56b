import Foundation
import LecternCore

/// An encoder's output gathered and written to its file in blocks of 64 KiB, so that a frame's
/// few hundred bytes are not a system call each (``MP3StreamWriter``, ``ACXMasterWriter``).
struct PendingBytes {
    static let block = 1 << 16
    private var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(Self.block) }

    /// Adds `new`, writing the whole block to `handle` once it holds ``block`` bytes.
    /// - throws: ``AudioError`` naming `url` and the system's reason.
    mutating func append(_ new: ArraySlice<UInt8>, to handle: FileHandle, url: URL) throws {
        bytes += new
        if bytes.count >= Self.block { try drain(to: handle, url: url) }
    }

    /// Writes what is gathered.
    mutating func drain(to handle: FileHandle, url: URL) throws {
        guard !bytes.isEmpty else { return }
        do { try handle.write(contentsOf: Data(bytes)) } catch {
            throw AudioError("cannot write \(url.path): \(FileError.reason(error))")
        }
        bytes.removeAll(keepingCapacity: true)
    }
}
