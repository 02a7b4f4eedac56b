import Foundation
import LecternSchedule

/// What the daemon knows of one manifest between polls: its policy, the files it watches and
/// their last fingerprint, and its runs in this process.
struct DaemonJob {
    var url: URL
    var name: String
    var jobId: Int64
    /// Size and modification time of the manifest when it was loaded.
    var manifestStamp: String
    var policy: JobPolicy?
    /// The manifest, its sources, lexicons and cover.
    var watchedFiles: [URL]
    /// `stamp(of: watchedFiles)` when last looked at.
    var fingerprint = ""
    var changedAt: Date?
    var running = false
    var lastRunStarted: Date?
    var lastTrigger: Trigger?
    /// The next due time last written to the store.
    var recordedNextDue: Date?
    /// The job's latest run, when it stopped before it ended and this daemon has not resumed it.
    var interruptedRun: Int64?
    var interruptedTrigger: Trigger?

    init(url: URL, name: String, jobId: Int64, manifestStamp: String, policy: JobPolicy?, watchedFiles: [URL]) {
        self.url = url
        self.name = name
        self.jobId = jobId
        self.manifestStamp = manifestStamp
        self.policy = policy
        self.watchedFiles = watchedFiles
    }

    /// `path size mtime` of each file (or `path missing`): equal stamps mean unchanged files.
    static func stamp(of files: [URL]) -> String { OutputFiles.stamp(files, fullPaths: true) }
}
