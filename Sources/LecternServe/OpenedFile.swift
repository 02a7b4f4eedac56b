import Foundation
import Hummingbird
import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file opened once for one answer: its size and time (the `ETag`) and the bytes sent come from
/// the same open file, so an output replaced while it is being sent (a run re-rendering the job
/// renames a new file into place) is sent whole as it was when the request came, never cut short
/// against the `Content-Length` its headers promised.
final class OpenedFile: Sendable {
    let descriptor: Int32
    /// Size in bytes and modification time in milliseconds since 1970, of the open file.
    let size: Int
    let modifiedMilliseconds: Int64

    /// The regular file at `path`, or nil when there is none to read there.
    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var facts = stat()
        guard fstat(descriptor, &facts) == 0, (facts.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        size = Int(facts.st_size)
        modifiedMilliseconds = Int64(facts.st_mtim.tv_sec) * 1000 + Int64(facts.st_mtim.tv_nsec) / 1_000_000
    }

    deinit { close(descriptor) }

    /// The bytes in `range` (within the file), read in 128 KiB chunks off the event loop.
    func body(_ range: ClosedRange<Int>) -> ResponseBody {
        ResponseBody(contentLength: range.count) { writer in
            var offset = range.lowerBound
            while offset <= range.upperBound {
                let count = min(128 * 1024, range.upperBound - offset + 1)
                let start = offset
                let chunk = try await NIOThreadPool.singleton.runIfActive { try self.read(count, at: start) }
                try await writer.write(chunk)
                offset += chunk.readableBytes
            }
            try await writer.finish(nil)
        }
    }

    private func read(_ count: Int, at offset: Int) throws -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: count)
        var failure: Int32 = 0
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { bytes in
            let read = pread(descriptor, bytes.baseAddress, count, off_t(offset))
            if read < 0 { failure = errno }
            return max(read, 0)
        }
        // Truncated in place (nothing of Lectern's does that): the answer stops rather than lie.
        guard failure == 0, buffer.readableBytes > 0 else {
            throw ServeError(.internalServerError, "the file being sent could not be read at byte \(offset): "
                             + (failure == 0 ? "it ended early" : String(cString: strerror(failure))))
        }
        return buffer
    }
}
