import Foundation
import HTTPTypes
import HummingbirdCore
import NIOCore
import Testing
@testable import LecternServe

/// An output is sent as it was when its request came: a run that renames a new file into place
/// while the old one is being sent changes neither the bytes nor their count (before, the file was
/// measured, then opened again by path, and the answer came short of its `Content-Length`).
@Suite struct OpenedFileTests {
    final class Received: @unchecked Sendable { var bytes: [UInt8] = []; var finished = false }

    struct Collector: ResponseBodyWriter {
        let received: Received
        mutating func write(_ buffer: ByteBuffer) async throws { received.bytes += buffer.readableBytesView }
        consuming func finish(_ trailingHeaders: HTTPFields?) async throws { received.finished = true }
    }

    static func body(_ file: OpenedFile, _ range: ClosedRange<Int>) async throws -> [UInt8] {
        let received = Received()
        try await file.body(range).write(Collector(received: received))
        #expect(received.finished)
        return received.bytes
    }

    @Test func aFileReplacedWhileItIsSentIsSentWholeAsItWas() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opened-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("book.mp3")
        let old = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        try Data(old).write(to: path)
        let file = try #require(OpenedFile(path: path.path))
        #expect(file.size == old.count)
        // The new render, smaller, renamed into place as AtomicFile does.
        let new = folder.appendingPathComponent("book.mp3.new")
        try Data(repeating: 1, count: 100_000).write(to: new)
        #expect(rename(new.path, path.path) == 0)
        #expect(try await Self.body(file, 0...(old.count - 1)) == old)
        #expect(try await Self.body(file, 250_000...299_999) == Array(old[250_000...299_999]))
        // A new request sees the new file.
        #expect(OpenedFile(path: path.path)?.size == 100_000)
    }

    @Test func aFolderOrAMissingFileIsNoFileToSend() {
        #expect(OpenedFile(path: FileManager.default.temporaryDirectory.path) == nil)
        #expect(OpenedFile(path: "/nonexistent/\(UUID().uuidString)") == nil)
    }
}
