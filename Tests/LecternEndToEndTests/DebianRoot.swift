import Foundation
import LecternCore
import LecternTesting

/// A Debian 12 (bookworm) root made with `debootstrap --variant=minbase` and the given packages,
/// kept in the clone's `.build-debroot/` (git-ignored) per package list, so that only the first
/// test run downloads it; commands run in it by `chroot` in a private mount namespace with its own
/// `/proc` (the Swift runtime reads its arguments there), which vanishes with the command.
struct DebianRoot {
    let url: URL

    static let suite = "bookworm"
    static let mirror = "http://deb.debian.org/debian"

    /// The root for `packages`, made if it is not there yet (into a `.partial` folder renamed
    /// when debootstrap succeeded, so an interrupted one is never used).
    static func prepared(with packages: [String]) throws -> DebianRoot {
        let names = packages.map { $0.split(separator: " ").first.map(String.init) ?? $0 }.sorted()
        let key = String(SHA256.hex(names.joined(separator: ",")).prefix(12))
        let cache = Tool.packageRoot.appendingPathComponent(".build-debroot")
        let url = cache.appendingPathComponent("\(suite)-\(key)")
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("usr/bin/dpkg").path) { return DebianRoot(url: url) }
        let partial = cache.appendingPathComponent("\(suite)-\(key).partial")
        try? FileManager.default.removeItem(at: partial)
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let made = try Tool.run("/usr/sbin/debootstrap", ["--variant=minbase", "--include=" + names.joined(separator: ","),
                                                          suite, partial.path, mirror])
        guard made.status == 0 else {
            throw TestFailure("debootstrap failed (\(made.status)): \(made.stdout.suffix(2000)) \(made.stderr.suffix(2000))")
        }
        try FileManager.default.moveItem(at: partial, to: url)
        return DebianRoot(url: url)
    }

    /// Runs `command` inside the root as root, with a plain environment.
    func run(_ command: [String]) throws -> Tool.Output {
        let quoted = command.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let script = "mount -t proc proc '\(url.path)/proc' && exec chroot '\(url.path)' /usr/bin/env -i HOME=/root "
            + "PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin LANG=C.UTF-8 \(quoted)"
        return try Tool.run("/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/sh", "-c", script])
    }
}
