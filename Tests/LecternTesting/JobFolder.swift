import Foundation
import Logging
import LecternCore
import LecternRunner
import LecternStore

/// A job run in this process: a fresh temporary folder for its manifest and sources, a SQLite
/// job store in it (`lectern.sqlite`, with the chunk cache beside it), and ``run(_:configure:)``,
/// which does what `lectern run --db lectern.sqlite MANIFEST` does — through ``JobRunner``, with
/// the chunks rendered in this process (``JobRunner/rendersInProcess``), no binary started.
///
/// ```swift
/// let job = try JobFolder("harbour")
/// try job.write("ch1.md", "# The Harbour\n\nThe boats came in.\n")
/// let manifest = try job.write("harbour.yml", "title: The Harbour\nsources: [ch1.md]\n")
/// let run = try await job.run(manifest)
/// #expect(run.record.chunksRendered == run.record.chunkCount)
/// ```
///
/// The folder is removed when the value goes away.
public final class JobFolder: Sendable {
    public let url: URL
    public let store: SQLiteJobStore
    public var storeURL: URL { url.appendingPathComponent("lectern.sqlite") }

    /// - parameter name: The start of the folder's name, for a reader of the temporary folder.
    public init(_ name: String = "job") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        store = try SQLiteJobStore(url: url.appendingPathComponent("lectern.sqlite"))
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes a file (creating folders) and returns its URL.
    @discardableResult
    public func write(_ path: String, _ text: String) throws -> URL {
        try write(path, Data(text.utf8))
    }

    /// Writes a file (creating folders) and returns its URL.
    @discardableResult
    public func write(_ path: String, _ data: Data) throws -> URL {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }

    /// The URL of `path` inside the folder.
    public func file(_ path: String) -> URL { url.appendingPathComponent(path) }

    /// Whether `path` exists inside the folder.
    public func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: file(path).path) }

    /// Runs the job of `manifest` in this process and reads back what the store recorded.
    ///
    /// - parameter configure: Changes the runner before the run (`force`, `extraTimings`, or
    ///   worker processes instead: `rendersInProcess = false` and a `workerExecutable`).
    /// - throws: what ``JobRunner/run(manifest:trigger:)`` throws.
    public func run(_ manifest: URL, configure: (inout JobRunner) -> Void = { _ in }) async throws -> JobRun {
        var logger = Logger(label: "lectern.testing")
        logger.logLevel = .warning
        var runner = JobRunner(store: store, logger: logger)
        runner.rendersInProcess = true
        let warnings = WarningList()
        runner.warnings = { warnings.append($0) }
        configure(&runner)
        let summary = try await runner.run(manifest: manifest)
        let runId = summary.run.id!
        let record = try await store.run(id: runId) ?? summary.run
        return JobRun(summary: summary, record: record, chunks: try await store.runChunks(runId: runId),
                      chapters: try await store.chapters(runId: runId), warnings: warnings.all)
    }
}

/// What one run of a ``JobFolder`` did: the runner's summary, the run's row as the store holds it
/// after the run, its chunks and chapters, and the warnings a user would have seen.
public struct JobRun: Sendable {
    public let summary: JobRunner.Summary
    /// The run's row (after an up-to-date run: the earlier run it was counted on).
    public let record: RunRecord
    public let chunks: [RunChunkRecord]
    public let chapters: [ChapterRecord]
    /// What `lectern run` prints as `lectern: warning: …`.
    public let warnings: [String]

    /// The files the run wrote (or found up to date).
    public var outputs: [URL] { summary.outputs }

    /// The chapter number of each chunk the run rendered itself (not reused), in book order.
    public var renderedChapters: [Int] { chunks.filter { $0.state == .rendered }.map(\.chapterNumber) }
}

/// The warnings of one run, appended from the runner's tasks.
private final class WarningList: @unchecked Sendable {
    // @unchecked Sendable is safe: `lines` is only touched while holding `lock`.
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
