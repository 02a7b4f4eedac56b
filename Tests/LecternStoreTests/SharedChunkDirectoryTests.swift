import Foundation
import Synchronization
import Testing
import LecternTestSupport
import LecternStore
#if canImport(Glibc)
import Glibc
#endif

/// Files and checks the chunk store tests share: real MP3 streams made by espeak-ng and LAME,
/// keys, byte flips, and the folders' leftover temporaries.
enum ChunkFixture {
    /// A fresh folder for one test.
    static func folder(_ name: String) -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-\(name)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A real MP3 of `text` spoken by espeak-ng and encoded by LAME (a chunk's size: tens of kB).
    static func mp3(_ text: String, in folder: URL, name: String = "chunk.mp3") throws -> URL {
        let out = folder.appendingPathComponent(name)
        let wav = folder.appendingPathComponent("\(name).wav")
        try run("/usr/bin/espeak-ng", ["-s", "300", "-w", wav.path, text])
        try run("/usr/bin/lame", ["--quiet", "-b", "64", wav.path, out.path])
        try FileManager.default.removeItem(at: wav)
        return out
    }

    /// A key as the runner makes them: 64 hex digits.
    static func key(_ seed: String) -> String { ChunkDigest(data: Data(seed.utf8)).sha256 }

    static func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(executable) \(arguments) failed")
    }

    /// The SHA-256 of a file by coreutils' `sha256sum`, an implementation independent of ours.
    static func sha256sum(_ file: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
    }

    /// Inverts one byte of a file in place (its size stays the same).
    static func flipByte(of file: URL, at offset: UInt64) throws {
        let handle = try FileHandle(forUpdating: file)
        defer { try? handle.close() }
        try handle.seek(toOffset: offset)
        let byte = try #require(try handle.read(upToCount: 1)).first!
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: Data([~byte]))
    }

    /// Every file under `folder` whose name marks it as a temporary.
    static func temporaries(under folder: URL) -> [String] {
        let walker = FileManager.default.enumerator(atPath: folder.path)
        var found: [String] = []
        while let path = walker?.nextObject() as? String {
            if (path as NSString).lastPathComponent.hasSuffix(".tmp") { found.append(path) }
        }
        return found
    }

    static func inode(of file: URL) -> UInt64? {
        var info = stat()
        return stat(file.path, &info) == 0 ? UInt64(info.st_ino) : nil
    }

    static func setModified(_ file: URL, secondsAgo: TimeInterval) throws {
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-secondsAgo)], ofItemAtPath: file.path)
    }
}

/// The shared chunk directory: what one host uploads, another downloads intact or not at all; a
/// damaged or cut-off copy is refused by name; uploads of one key at once, from threads and from
/// processes, leave one intact file; stale temporaries go by age; hashing streams.
@Suite(.onTestThreads) struct SharedChunkDirectoryTests {
    @Test func anUploadedChunkDownloadsByteForByteAndASecondUploadIsANoOp() throws {
        let folder = ChunkFixture.folder("shared-roundtrip")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try ChunkFixture.mp3("The first chunk of a book, read aloud to be stored for every host.", in: folder)
        let store = SharedChunkDirectory(directory: folder.appendingPathComponent("shared"))
        let key = ChunkFixture.key("roundtrip")

        let digest = try store.upload(source, key: key)
        let sourceData = try Data(contentsOf: source)
        #expect(sourceData.count > 10_000, "a real MP3 stream")
        #expect(digest.bytes == sourceData.count)
        #expect(digest.sha256 == (try ChunkFixture.sha256sum(source)))
        #expect(try Data(contentsOf: store.url(for: key)) == sourceData)
        #expect(store.url(for: key).path.hasSuffix("chunks/\(key.prefix(2))/\(key).mp3"))
        #expect(store.contains(key: key, expected: digest))
        #expect(!store.contains(key: key, expected: ChunkDigest(bytes: digest.bytes + 1, sha256: digest.sha256)))
        #expect(try store.keys() == [key])

        let inode = ChunkFixture.inode(of: store.url(for: key))
        #expect(try store.upload(source, key: key) == digest)
        #expect(ChunkFixture.inode(of: store.url(for: key)) == inode, "the same content is not written again")

        let destination = folder.appendingPathComponent("host-b/cache/copy.mp3")
        try store.download(key: key, expected: digest, to: destination)
        #expect(try Data(contentsOf: destination) == sourceData)
        #expect(ChunkFixture.temporaries(under: folder).isEmpty)

        // An upload over a damaged stored copy replaces it.
        try ChunkFixture.flipByte(of: store.url(for: key), at: 100)
        #expect(try store.upload(source, key: key) == digest)
        #expect(try ChunkDigest(file: store.url(for: key)) == digest)

        try store.remove(key: key)
        try store.remove(key: key)  // not stored: not an error
        #expect(try store.keys().isEmpty)
        #expect(!store.contains(key: key, expected: digest))
    }

    @Test func oneKeyUploadedAtOnceFromThreadsAndProcessesEndsAsOneIntactFile() throws {
        let folder = ChunkFixture.folder("shared-concurrent")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Large enough (8 MB) that the uploads overlap.
        let source = folder.appendingPathComponent("big.bin")
        let random = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
        try random.readData(ofLength: 8_000_000).write(to: source)
        try random.close()
        let expected = try ChunkDigest(file: source)
        let shared = folder.appendingPathComponent("shared")
        let key = ChunkFixture.key("concurrent")

        // Two other processes (this test binary, in the helper test below) and four threads with an
        // instance each: like hosts that finished the same chunk at once.
        let reports = (0..<2).map { folder.appendingPathComponent("process-\($0).digest") }
        let processes = try reports.map { try Self.uploadInAnotherProcess(source, key: key, to: shared, report: $0) }
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let store = SharedChunkDirectory(directory: shared)
            results.add(Result { try store.upload(source, key: key) })
        }
        for (process, report) in zip(processes, reports) {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "the upload in process \(process.processIdentifier) failed")
            #expect((try? String(contentsOf: report, encoding: .utf8)) == expected.sha256, "process \(process.processIdentifier) uploaded")
        }
        for result in results.all { #expect(try result.get() == expected) }
        let store = SharedChunkDirectory(directory: shared)
        #expect(try ChunkDigest(file: store.url(for: key)) == expected)
        #expect(try store.keys() == [key])
        #expect(ChunkFixture.temporaries(under: shared).isEmpty)
    }

    /// What a second process does in the test above: uploads as `LECTERN_TEST_UPLOAD` says (`file`,
    /// `key`, `folder`, `report`, one a line), writes the digest's SHA-256 to `report` and exits;
    /// without that variable (any ordinary run) it does nothing.
    @Test func uploadHelperForAnotherProcess() throws {
        guard let job = ProcessInfo.processInfo.environment["LECTERN_TEST_UPLOAD"] else { return }
        let lines = job.split(separator: "\n").map(String.init)
        try #require(lines.count == 4)
        let digest = try SharedChunkDirectory(directory: URL(fileURLWithPath: lines[2])).upload(URL(fileURLWithPath: lines[0]), key: lines[1])
        try Data(digest.sha256.utf8).write(to: URL(fileURLWithPath: lines[3]))
    }

    /// Starts this test binary running only ``uploadHelperForAnotherProcess()``.
    static func uploadInAnotherProcess(_ file: URL, key: String, to folder: URL, report: URL) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["--testing-library", "swift-testing", "--filter", "uploadHelperForAnotherProcess"]
        var environment = ProcessInfo.processInfo.environment
        environment["LECTERN_TEST_UPLOAD"] = [file.path, key, folder.path, report.path].joined(separator: "\n")
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Outcomes collected from concurrent uploads.
    final class Results: Sendable {
        private let values = Mutex<[Result<ChunkDigest, Error>]>([])
        func add(_ value: Result<ChunkDigest, Error>) { values.withLock { $0.append(value) } }
        var all: [Result<ChunkDigest, Error>] { values.withLock { $0 } }
    }

    @Test func aDamagedStoredChunkIsRefusedByKeyAndPathAndNothingIsLeftAtTheDestination() throws {
        let folder = ChunkFixture.folder("shared-damaged")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try ChunkFixture.mp3("A chunk whose stored copy is damaged on the shared disk.", in: folder)
        let store = SharedChunkDirectory(directory: folder.appendingPathComponent("shared"))
        let key = ChunkFixture.key("damaged")
        let digest = try store.upload(source, key: key)
        let stored = store.url(for: key)
        let destination = folder.appendingPathComponent("local/copy.mp3")

        try ChunkFixture.flipByte(of: stored, at: UInt64(digest.bytes / 2))
        let flipped = try #require(throws: StoreError.self) { try store.download(key: key, expected: digest, to: destination) }
        #expect(flipped.message.contains(key) && flipped.message.contains(stored.path))
        #expect(flipped.message.contains("SHA-256") && flipped.message.contains(digest.sha256))
        #expect(!FileManager.default.fileExists(atPath: destination.path))

        // Cut short: the size differs.
        try FileHandle(forUpdating: stored).truncate(atOffset: UInt64(digest.bytes - 1000))
        let truncated = try #require(throws: StoreError.self) { try store.download(key: key, expected: digest, to: destination) }
        #expect(truncated.message.contains(key) && truncated.message.contains(stored.path))
        #expect(truncated.message.contains("\(digest.bytes - 1000) bytes where \(digest.bytes) were recorded"))
        #expect(!FileManager.default.fileExists(atPath: destination.path))

        // A previous good copy at the destination is left as it was.
        try Data(contentsOf: source).write(to: destination)
        #expect(throws: StoreError.self) { try store.download(key: key, expected: digest, to: destination) }
        #expect(try Data(contentsOf: destination) == Data(contentsOf: source))
        #expect(ChunkFixture.temporaries(under: folder).isEmpty)
    }

    @Test func aDownloadCutOffMidwayLeavesNoPartialFile() throws {
        let folder = ChunkFixture.folder("shared-cutoff")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try ChunkFixture.mp3("A chunk whose download is cut off half way through.", in: folder)
        let data = try Data(contentsOf: source)
        let store = SharedChunkDirectory(directory: folder.appendingPathComponent("shared"))
        let key = ChunkFixture.key("cutoff")
        let digest = try store.upload(source, key: key)
        let stored = store.url(for: key)
        let destination = folder.appendingPathComponent("local/copy.mp3")

        // The stored stream stops half way (a server that went away): a pipe that gets half.
        try FileManager.default.removeItem(at: stored)
        #expect(mkfifo(stored.path, 0o644) == 0)
        let half = data.prefix(data.count / 2)
        let writer = Thread {
            let fd = open(stored.path, O_WRONLY)  // returns once the download opened it
            _ = half.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        writer.start()
        let cut = try #require(throws: StoreError.self) { try store.download(key: key, expected: digest, to: destination) }
        #expect(cut.message.contains(key) && cut.message.contains(stored.path) && cut.message.contains("\(half.count) bytes"))
        #expect(!FileManager.default.fileExists(atPath: destination.path))

        // A read that fails (here: the stored name is a folder).
        try FileManager.default.removeItem(at: stored)
        try FileManager.default.createDirectory(at: stored, withIntermediateDirectories: false)
        let unreadable = try #require(throws: StoreError.self) { try store.download(key: key, expected: digest, to: destination) }
        #expect(unreadable.message == "cannot download chunk \(key) from \(stored.path): Is a directory")
        #expect(!FileManager.default.fileExists(atPath: destination.path))

        // The stored file is gone.
        try FileManager.default.removeItem(at: stored)
        let missing = try #require(throws: StoreError.self) { try store.download(key: key, expected: digest, to: destination) }
        #expect(missing.message == "cannot download chunk \(key) from \(stored.path): No such file or directory")

        // The destination cannot be written (its folder is a file).
        _ = try store.upload(source, key: key)
        let blocked = folder.appendingPathComponent("blocked")
        try Data("not a folder".utf8).write(to: blocked)
        let unwritable = try #require(throws: StoreError.self) {
            try store.download(key: key, expected: digest, to: blocked.appendingPathComponent("copy.mp3"))
        }
        #expect(unwritable.message == "cannot create the folder \(blocked.path): a file of that name is in the way")
        #expect(try Data(contentsOf: blocked) == Data("not a folder".utf8))
        #expect(ChunkFixture.temporaries(under: folder).isEmpty)
    }

    @Test func staleTemporariesAreRemovedByAgeAndFreshOnesKept() throws {
        let folder = ChunkFixture.folder("shared-stale")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try ChunkFixture.mp3("A chunk beside two unfinished uploads.", in: folder)
        let store = SharedChunkDirectory(directory: folder.appendingPathComponent("shared"))
        let key = ChunkFixture.key("stale")
        try store.upload(source, key: key)
        try ChunkFixture.setModified(store.url(for: key), secondsAgo: 7200)
        let chunkFolder = store.url(for: key).deletingLastPathComponent()
        let stale = chunkFolder.appendingPathComponent(".\(key).host-a.4242.1.tmp")
        let fresh = chunkFolder.appendingPathComponent(".\(key).host-b.4243.1.tmp")
        try Data(repeating: 1, count: 5000).write(to: stale)
        try Data(repeating: 2, count: 5000).write(to: fresh)
        try ChunkFixture.setModified(stale, secondsAgo: 7200)
        try Data("stray".utf8).write(to: chunkFolder.deletingLastPathComponent().appendingPathComponent("README"))
        #expect(try store.keys() == [key], "temporaries and stray files are not keys")

        #expect(store.removeStaleTemporaries(olderThan: 3600, dryRun: true).map(\.path) == [stale.path])
        #expect(FileManager.default.fileExists(atPath: stale.path), "a dry run removes nothing")
        #expect(store.removeStaleTemporaries(olderThan: 3600).map(\.path) == [stale.path])
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: fresh.path))
        #expect(try ChunkDigest(file: store.url(for: key)) == ChunkDigest(file: source), "an old chunk is not a temporary")
    }

    @Test func aKeyThatIsNotAFileNameIsRefused() throws {
        let folder = ChunkFixture.folder("shared-keys")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("x.bin")
        try Data("x".utf8).write(to: source)
        let store = SharedChunkDirectory(directory: folder.appendingPathComponent("shared"))
        let error = try #require(throws: StoreError.self) { try store.upload(source, key: "../../escape") }
        #expect(error.message.contains("\"../../escape\""))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("shared").path))
        #expect(store.description.contains(folder.appendingPathComponent("shared").path))
    }

    @Test func hashingAFileStreamsItInConstantMemory() throws {
        let folder = ChunkFixture.folder("shared-memory")
        defer { try? FileManager.default.removeItem(at: folder) }
        let big = folder.appendingPathComponent("sparse.bin")
        let size = 200 * 1024 * 1024
        #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
        try FileHandle(forWritingTo: big).truncate(atOffset: UInt64(size))
        // Reset this process's peak resident size, hash, and read the peak again. The peak is the
        // whole test process's, which the tests running beside this one raise too (by tens of MB
        // at times): the least rise of three tries counts, against half the file — reading it
        // whole would raise the peak by all of it in every try.
        var rises: [Int] = []
        for _ in 1...3 {
            let before = try Self.status("VmRSS")
            let clear = open("/proc/self/clear_refs", O_WRONLY)
            try #require(clear >= 0 && write(clear, "5", 1) == 1, "cannot reset the peak resident size")
            close(clear)
            let digest = try ChunkDigest(file: big)
            rises.append(try Self.status("VmHWM") - before)
            #expect(digest.bytes == size)
            #expect(digest.sha256 == (try ChunkFixture.sha256sum(big)))
        }
        let rise = rises.min() ?? .max
        #expect(rise < size / 1024 / 2, "hashing 200 MB raised the peak resident size by \(rises) kB")
    }

    /// A `kB` field of `/proc/self/status`.
    static func status(_ field: String) throws -> Int {
        let text = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("\(field):") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }
}
