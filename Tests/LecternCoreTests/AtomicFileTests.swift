import Foundation
import Testing
import LecternCore

/// Temporary names are the writer's own: two writers of one file (tasks of one process) never
/// share one, and each file put in place is one writer's whole; the names still tell which
/// process wrote them, for the clean-up of what dead processes left.
@Suite struct AtomicFileTests {
    @Test func everyWriterHasItsOwnTemporaryName() {
        let url = URL(fileURLWithPath: "/tmp/out/book.mp3")
        let names = Set((0..<1000).map { _ in AtomicFile.temporaryURL(for: url).lastPathComponent })
        #expect(names.count == 1000)
        for name in names.prefix(20) {
            #expect(name.hasPrefix(".book.mp3.\(getpid())."), "\(name)")
            #expect(AtomicFile.temporaryOwner(of: name)?.name == "book.mp3")
            #expect(AtomicFile.temporaryOwner(of: name)?.pid == getpid())
        }
    }

    @Test func ownersOfOldAndNewNames() {
        #expect(AtomicFile.temporaryOwner(of: ".book.mp3.123.tmp").map { "\($0.name) \($0.pid)" } == "book.mp3 123")
        #expect(AtomicFile.temporaryOwner(of: ".book.mp3.123.0123456789abcdef.tmp").map { "\($0.name) \($0.pid)" } == "book.mp3 123")
        #expect(AtomicFile.temporaryOwner(of: ".a.b.c.7.tmp").map { "\($0.name) \($0.pid)" } == "a.b.c 7")
        #expect(AtomicFile.temporaryOwner(of: ".book.mp3.tmp") == nil)
        #expect(AtomicFile.temporaryOwner(of: "book.mp3.123.tmp") == nil)
        #expect(AtomicFile.temporaryOwner(of: ".book.mp3.x12.tmp") == nil)
        #expect(AtomicFile.temporaryOwner(of: ".123.tmp") == nil)
    }

    @Test func simultaneousWritersOfOneFileEachPutAWholeFileInPlace() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("shared.bin")
        let contents = (0..<16).map { Data(repeating: UInt8($0), count: 200_000) }
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: contents.count) { i in
            do { try AtomicFile.write(contents[i], to: url) } catch { failures.add("\(error)") }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        let kept = try Data(contentsOf: url)
        #expect(contents.contains(kept), "the file is one writer's whole file")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "shared.bin" }
        #expect(left.isEmpty, "no temporary stays: \(left)")
    }
}

private final class Failures: @unchecked Sendable {
    // @unchecked Sendable: `list` is only touched under `lock`.
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ failure: String) { lock.withLock { list.append(failure) } }
    var all: [String] { lock.withLock { list } }
}
