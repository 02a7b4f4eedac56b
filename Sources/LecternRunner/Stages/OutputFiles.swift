import Foundation
import LecternCore
import LecternStore

/// Facts about a job's output files: a stamp (size and modification time of each) that tells
/// whether they are still as a run wrote them, and clean-up of temporary files left beside them
/// by processes that died.
public enum OutputFiles {
    /// `name size mtime` of each file, or `name missing` (with `fullPaths`, the path for the name).
    static func stamp(_ files: [URL], fullPaths: Bool = false) -> String {
        files.map { url in
            let name = fullPaths ? url.path : url.lastPathComponent
            var info = stat()
            guard stat(url.path, &info) == 0 else { return "\(name) missing" }
            return "\(name) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        }.joined(separator: "\n")
    }

    /// Removes `.NAME.PID.RANDOM.tmp` (and older `.NAME.PID.tmp`) files and folders beside each
    /// of `files` whose process is gone — never one of `inputs`, however it is named; returns them (with `dryRun`, removes nothing).
    @discardableResult
    public static func removeStaleTemporaries(of files: [URL], protecting inputs: [URL] = [], dryRun: Bool = false) -> [URL] {
        let fm = FileManager.default
        let protected = InputFiles(inputs.map { JobInput(url: $0, role: "an input") })
        var removed: [URL] = []
        for folder in Set(files.map { $0.deletingLastPathComponent() }) {
            let names = Set(files.filter { $0.deletingLastPathComponent() == folder }.map(\.lastPathComponent))
            for entry in (try? fm.contentsOfDirectory(atPath: folder.path)) ?? [] {
                guard let owner = AtomicFile.temporaryOwner(of: entry), names.contains(owner.name) else { continue }
                let pid = owner.pid
                if pid != getpid(), kill(pid, 0) != 0, errno == ESRCH {
                    let url = folder.appendingPathComponent(entry)
                    if protected.input(at: url) != nil { continue }
                    if !dryRun { try? fm.removeItem(at: url) }
                    removed.append(url)
                }
            }
        }
        return removed
    }
}
