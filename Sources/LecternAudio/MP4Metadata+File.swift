import Foundation
import LecternCore

extension MP4Metadata {
    /// A box in a file: where it starts, its whole size and its type.
    struct BoxHeader {
        var offset: UInt64
        var size: UInt64
        var type: String
    }

    /// Replaces the `udta` of the MP4 file at `url`'s `moov` with `userData`, leaving every other
    /// box of moov as it is. The audio (`mdat`) does not move, so no chunk offset changes: a moov
    /// at the end of the file is rewritten in place, one elsewhere becomes a `free` box and the
    /// new moov goes at the end. The file is synced.
    static func replaceUserData(in url: URL, with userData: Data) throws {
        let fail = { (why: String) in AudioError("cannot write the metadata of \(url.path): \(why)") }
        let handle: FileHandle
        do { handle = try FileHandle(forUpdating: url) } catch { throw fail(FileError.reason(error)) }
        defer { try? handle.close() }
        do {
            let boxes = try topLevelBoxes(handle)
            guard let moov = boxes.first(where: { $0.type == "moov" }) else { throw fail("the muxer wrote no moov box") }
            try handle.seek(toOffset: moov.offset)
            guard let old = try handle.read(upToCount: Int(moov.size)), old.count == Int(moov.size), moov.size >= 8 else {
                throw fail("its moov box is cut short")
            }
            let newMoov = try rebuiltMovie(old, userData: userData, fail: fail)
            let end = moov.offset + moov.size
            if end == boxes.last.map({ $0.offset + $0.size }) {
                try handle.truncate(atOffset: moov.offset)
                try handle.seek(toOffset: moov.offset)
            } else {
                try handle.seek(toOffset: moov.offset + 4)
                try handle.write(contentsOf: Data("free".utf8))
                try handle.seekToEnd()
            }
            try handle.write(contentsOf: newMoov)
            try handle.synchronize()
        } catch let error as AudioError {
            throw error
        } catch {
            throw fail(FileError.reason(error))
        }
    }

    /// The file's top-level boxes in order (a size of 1 is a 64-bit size, 0 runs to the end).
    static func topLevelBoxes(_ handle: FileHandle) throws -> [BoxHeader] {
        let fileSize = try handle.seekToEnd()
        var boxes: [BoxHeader] = []
        var offset: UInt64 = 0
        while offset + 8 <= fileSize {
            try handle.seek(toOffset: offset)
            let header = [UInt8](try handle.read(upToCount: 16) ?? Data())
            guard header.count >= 8 else { break }
            var size = UInt64(readUInt32(header, 0))
            if size == 1, header.count >= 16 { size = UInt64(readUInt32(header, 8)) << 32 | UInt64(readUInt32(header, 12)) }
            if size == 0 { size = fileSize - offset }
            guard size >= 8, offset + size <= fileSize else {
                throw AudioError("a box at byte \(offset) runs past the end of the file")
            }
            boxes.append(BoxHeader(offset: offset, size: size, type: String(decoding: header[4..<8], as: UTF8.self)))
            offset += size
        }
        return boxes
    }

    /// `moov` with its `udta` left out and `userData` appended.
    static func rebuiltMovie(_ moov: Data, userData: Data, fail: (String) -> AudioError) throws -> Data {
        let bytes = [UInt8](moov)
        var children = Data()
        var offset = 8
        while offset + 8 <= bytes.count {
            let size = Int(readUInt32(bytes, offset))
            guard size >= 8, offset + size <= bytes.count else { throw fail("a box in moov at byte \(offset) is malformed") }
            if String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self) != "udta" {
                children += moov[moov.startIndex + offset..<moov.startIndex + offset + size]
            }
            offset += size
        }
        return box("moov", children + userData)
    }

    static func readUInt32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }
}
