import Foundation
import LecternCore

extension MP4Metadata {
    /// A box in a file: where it starts, its whole size and its type.
    struct BoxHeader {
        var offset: UInt64
        var size: UInt64
        var type: String
    }

    /// Replaces the `udta` of the MP4 file at `url`'s `moov` with `userData`, puts
    /// `channelCount` in each `mp4a` sample entry (FFmpeg 5.1 writes ISO's template value 2 there,
    /// which mutagen reports for a mono file), leaving every other box of moov as it is, and moves
    /// moov in front of the audio (faststart: a player streaming the file reads the index first),
    /// adding its size to every chunk offset (`stco`, `co64`). The audio is moved in blocks of
    /// 1 MiB from the end, so the file is not held in memory. When a 32-bit chunk offset would
    /// overflow, moov stays at the end. The file is synced.
    static func replaceUserData(in url: URL, with userData: Data, channelCount: Int) throws {
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
            let newMoov = try rebuiltMovie(old, userData: userData, channelCount: channelCount, fail: fail)
            var dataEnd = boxes.last.map { $0.offset + $0.size } ?? 0
            if moov.offset + moov.size == dataEnd {
                try handle.truncate(atOffset: moov.offset)
                dataEnd = moov.offset
            } else {
                try handle.seek(toOffset: moov.offset + 4)
                try handle.write(contentsOf: Data("free".utf8))
            }
            let front = boxes.first.map { $0.type == "ftyp" ? $0.size : 0 } ?? 0
            if let shifted = try shiftingChunkOffsets(newMoov, by: UInt64(newMoov.count), fail: fail) {
                try move(handle, from: front, to: dataEnd, by: UInt64(newMoov.count))
                try handle.seek(toOffset: front)
                try handle.write(contentsOf: shifted)
            } else {
                try handle.seek(toOffset: dataEnd)
                try handle.write(contentsOf: newMoov)
            }
            try handle.synchronize()
        } catch let error as AudioError {
            throw error
        } catch {
            throw fail(FileError.reason(error))
        }
    }

    /// Moves the bytes `start..<end` of the file `distance` bytes later, last block first.
    static func move(_ handle: FileHandle, from start: UInt64, to end: UInt64, by distance: UInt64) throws {
        var blockEnd = end
        while blockEnd > start {
            let blockStart = max(start, blockEnd - min(blockEnd, 1 << 20))
            try handle.seek(toOffset: blockStart)
            let block = try handle.read(upToCount: Int(blockEnd - blockStart)) ?? Data()
            guard block.count == Int(blockEnd - blockStart) else { throw AudioError("the file ended at byte \(blockStart + UInt64(block.count))") }
            try handle.seek(toOffset: blockStart + distance)
            try handle.write(contentsOf: block)
            blockEnd = blockStart
        }
    }

    /// `moov` with `distance` added to each chunk offset of each track, or nil when a 32-bit
    /// offset (`stco`) would overflow.
    static func shiftingChunkOffsets(_ moov: Data, by distance: UInt64, fail: (String) -> AudioError) throws -> Data? {
        var bytes = [UInt8](moov)
        for track in try children(of: bytes, in: 8..<bytes.count, fail: fail) where track.type == "trak" {
            guard let table = try sampleTable(bytes, track: track.range, fail: fail) else { continue }
            for box in try children(of: bytes, in: table.lowerBound + 8..<table.upperBound, fail: fail) {
                let width = box.type == "stco" ? 4 : box.type == "co64" ? 8 : 0
                guard width > 0, box.range.count >= 16 else { continue }
                let count = Int(readUInt32(bytes, box.range.lowerBound + 12))
                guard 16 + count * width <= box.range.count else { throw fail("its \(box.type) box is cut short") }
                for i in 0..<count {
                    let at = box.range.lowerBound + 16 + i * width
                    var value: UInt64 = 0
                    for k in 0..<width { value = value << 8 | UInt64(bytes[at + k]) }
                    value += distance
                    if width == 4, value > UInt64(UInt32.max) { return nil }
                    for k in 0..<width { bytes[at + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(width - 1 - k))) }
                }
            }
        }
        return Data(bytes)
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

    /// `moov` with its `udta` left out, `userData` appended and each mp4a entry's channel count set.
    static func rebuiltMovie(_ moov: Data, userData: Data, channelCount: Int, fail: (String) -> AudioError) throws -> Data {
        var bytes = [UInt8](moov)
        var kept = Data()
        for child in try children(of: bytes, in: 8..<bytes.count, fail: fail) where child.type != "udta" {
            if child.type == "trak" { try setChannelCount(channelCount, in: &bytes, track: child.range, fail: fail) }
            kept += Data(bytes[child.range])
        }
        return box("moov", kept + userData)
    }

    /// In a `trak`, the channel count of an `mp4a` entry of `mdia/minf/stbl/stsd`.
    static func setChannelCount(_ count: Int, in bytes: inout [UInt8], track: Range<Int>,
                                fail: (String) -> AudioError) throws {
        guard let table = try sampleTable(bytes, track: track, fail: fail),
              let range = try children(of: bytes, in: table.lowerBound + 8..<table.upperBound, fail: fail)
                .first(where: { $0.type == "stsd" })?.range else { return }
        // stsd: version and flags, an entry count, then the entries.
        for entry in try children(of: bytes, in: range.lowerBound + 16..<range.upperBound, fail: fail) where entry.type == "mp4a" {
            guard entry.range.count >= 28 else { throw fail("its mp4a sample entry is cut short") }
            bytes[entry.range.lowerBound + 24] = UInt8(count >> 8 & 0xFF)
            bytes[entry.range.lowerBound + 25] = UInt8(count & 0xFF)
        }
    }

    /// A `trak`'s `mdia/minf/stbl`.
    static func sampleTable(_ bytes: [UInt8], track: Range<Int>, fail: (String) -> AudioError) throws -> Range<Int>? {
        var range = track
        for type in ["mdia", "minf", "stbl"] {
            guard let next = try children(of: bytes, in: range.lowerBound + 8..<range.upperBound, fail: fail)
                .first(where: { $0.type == type }) else { return nil }
            range = next.range
        }
        return range
    }

    /// The boxes that fill `range` of `bytes`.
    static func children(of bytes: [UInt8], in range: Range<Int>, fail: (String) -> AudioError) throws -> [(type: String, range: Range<Int>)] {
        var result: [(type: String, range: Range<Int>)] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            let size = Int(readUInt32(bytes, offset))
            guard size >= 8, offset + size <= range.upperBound else { throw fail("a box in moov at byte \(offset) is malformed") }
            result.append((String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self), offset..<offset + size))
            offset += size
        }
        return result
    }

    static func readUInt32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }
}
