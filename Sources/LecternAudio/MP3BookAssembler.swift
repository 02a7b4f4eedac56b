import Foundation
import LecternCore

/// Puts a book's MP3 together: the ID3 tag, then the chunks' MP3 streams in order. Every chunk
/// stream starts with a LAME tag frame; the first chunk's is rewritten to describe the whole book
/// and the others are dropped. Nothing is re-encoded. Written atomically.
public enum MP3BookAssembler {
    /// One encoded chunk stream.
    public struct Part: Sendable {
        public var url: URL
        /// Audio frames after the tag frame.
        public var audioFrames: Int
        /// Bytes of the whole file, and of its leading tag frame.
        public var bytes: Int
        public var tagBytes: Int
        public init(url: URL, audioFrames: Int, bytes: Int, tagBytes: Int) {
            self.url = url
            self.audioFrames = audioFrames
            self.bytes = bytes
            self.tagBytes = tagBytes
        }
    }

    /// Writes the book into `file` and syncs it, leaving the rename to the caller (who may want
    /// to put several outputs in place together). On error the file is discarded.
    ///
    /// - parameters:
    ///     - parts: The chunk streams in order.
    ///     - endPadding: Samples of the last chunk after its audio, which decoders must drop.
    ///     - checkpoint: Called after each part is copied (for tests that stop the process there).
    public static func write(tag: ID3Tag, parts: [Part], endPadding: Int, to file: AtomicFile,
                             checkpoint: ((Int) -> Void)? = nil) throws {
        guard let first = parts.first else { throw AudioError("no audio to assemble") }
        let handle = file.handle
        do {
            let id3 = try tag.encoded()
            try handle.write(contentsOf: id3)
            let head = try read(first.url, upTo: first.tagBytes)
            var lame = try LAMETag(frame: Array(head))
            try handle.write(contentsOf: Data(lame.frame))  // rewritten below, once the CRC is known
            var crc = CRC16()
            for (i, part) in parts.enumerated() {
                try copy(part, to: handle, crc: &crc)
                checkpoint?(i)
            }
            lame.extend(frames: parts.dropFirst().reduce(0) { $0 + $1.audioFrames },
                        bytes: parts.dropFirst().reduce(0) { $0 + $1.bytes - $1.tagBytes }, padding: endPadding, musicCRC: crc.value)
            try handle.seek(toOffset: UInt64(id3.count))
            try handle.write(contentsOf: Data(lame.frame))
        } catch {
            file.discard()
            if error is AudioError { throw error }
            throw FileError("cannot write \(file.url.path): \(FileError.reason(error))")
        }
        try file.prepare()
    }

    /// Writes `tag` and then the bytes of one tagged stream (for `lectern say`).
    public static func assemble(tag: ID3Tag, stream: URL, output: URL) throws {
        try AtomicFile.write(to: output) { handle in
            try handle.write(contentsOf: try tag.encoded())
            var unused = CRC16()  // a single tagged stream needs no tag rewrite
            try copy(stream, to: handle, skipping: 0, expected: nil, crc: &unused)
        }
    }

    private static func read(_ url: URL, upTo count: Int) throws -> Data {
        guard let input = FileHandle(forReadingAtPath: url.path) else { throw AudioError("cannot read \(url.path)") }
        defer { try? input.close() }
        return try input.read(upToCount: count) ?? Data()
    }

    private static func copy(_ part: Part, to handle: FileHandle, crc: inout CRC16) throws {
        try copy(part.url, to: handle, skipping: part.tagBytes, expected: part.bytes - part.tagBytes, crc: &crc)
    }

    /// Copies a file from `skipping` on; a file that is not `expected` bytes long there is an error
    /// (a damaged cache entry must not become a damaged book).
    private static func copy(_ url: URL, to handle: FileHandle, skipping: Int, expected: Int?, crc: inout CRC16) throws {
        guard let input = FileHandle(forReadingAtPath: url.path) else { throw AudioError("cannot read the chunk \(url.path)") }
        defer { try? input.close() }
        if skipping > 0 { try input.seek(toOffset: UInt64(skipping)) }
        var copied = 0
        while let block = try input.read(upToCount: 1 << 20), !block.isEmpty {
            crc.update(block)
            try handle.write(contentsOf: block)
            copied += block.count
        }
        if let expected, copied != expected {
            throw AudioError("the chunk \(url.path) has \(copied + skipping) bytes, not the \(expected + skipping) recorded")
        }
    }
}
