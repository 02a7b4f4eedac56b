import Foundation

/// Puts a book's MP3 together: the ID3 tag followed by the encoded stream, written atomically.
public enum MP3BookAssembler {
    /// Writes `tag` and then the bytes of `stream` to `output`, replacing it atomically.
    public static func assemble(tag: ID3Tag, stream: URL, output: URL) throws {
        try AtomicFile.write(to: output) { handle in
            try handle.write(contentsOf: tag.encoded())
            guard let input = FileHandle(forReadingAtPath: stream.path) else {
                throw AudioError("cannot read the encoded stream \(stream.path)")
            }
            defer { try? input.close() }
            while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
                try handle.write(contentsOf: chunk)
            }
        }
    }
}
