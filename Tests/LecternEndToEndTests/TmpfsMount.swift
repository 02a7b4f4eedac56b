import Foundation
import Testing

/// A small tmpfs mounted by a test (as root; the tests run as root), filled to the last byte when
/// asked, so that every write into it fails with "No space left on device". Unmounted by
/// ``unmount()`` — call it in a `defer` — or, lazily, when the object goes.
final class TmpfsMount: @unchecked Sendable {
    // @unchecked Sendable: `mounted` is only touched from the test's thread.
    let folder: URL
    private var mounted = true

    /// Mounts a tmpfs of `kilobytes` at `folder` (created if needed).
    ///
    /// - throws: the `mount` command's error, saying that the test needs to be root.
    init(at folder: URL, kilobytes: Int) throws {
        self.folder = folder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let out = try Tool.run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0755", "tmpfs", folder.path])
        guard out.status == 0 else {
            mounted = false
            throw TmpfsError(description: "cannot mount a tmpfs at \(folder.path) (the test needs root, or CAP_SYS_ADMIN): \(out.stderr)")
        }
    }

    /// Fills the file system: one file grows until the system says there is no space left.
    /// Returns the error that stopped it.
    func fill() -> String {
        let descriptor = open(folder.appendingPathComponent("filler").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0x55, count: 4096)
        var single: [UInt8] = [0]
        while write(descriptor, block, block.count) == block.count {}
        while write(descriptor, &single, 1) == 1 {}
        return String(cString: strerror(errno))
    }

    func unmount() {
        guard mounted else { return }
        mounted = false
        _ = try? Tool.run("/usr/bin/umount", ["-l", folder.path])
    }

    deinit { unmount() }
}

struct TmpfsError: Error, CustomStringConvertible {
    var description: String
}
