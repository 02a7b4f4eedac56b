import Foundation
import Testing
import LecternCore
@testable import LecternRunner

/// A manifest's cover is read only when it is a regular file: a device or FIFO named as the cover
/// is refused at once, naming the cover, never read until memory or patience runs out.
@Suite(.timeLimit(.minutes(1))) struct CoverFileTests {
    @Test func aCoverThatIsNoRegularFileIsRefusedWithoutBlocking() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cover-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("cover.jpg")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        for path in ["/dev/zero", "/dev/urandom", fifo.path, folder.path] {
            let error = try #require(throws: (any Error).self) { try JobRunner.picture(URL(fileURLWithPath: path)) }
            #expect("\(error)" == "cannot read the cover \(path): it \(LinkedFile.notRegularReason)", "\(error)")
        }
        let missing = folder.appendingPathComponent("gone.png").path
        let error = try #require(throws: (any Error).self) { try JobRunner.picture(URL(fileURLWithPath: missing)) }
        #expect("\(error)" == "cannot read the cover \(missing): it does not exist")
    }
}
