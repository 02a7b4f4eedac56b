import Foundation
import Testing
import LecternTesting

/// Runs the real `lectern` binary, and the independent tools that check its outputs (``CheckTool``).
enum Tool {
    typealias Output = CheckTool.Output

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The binary under test: $LECTERN_BIN (set by `make test`), else the debug build.
    static var lectern: String {
        if let bin = ProcessInfo.processInfo.environment["LECTERN_BIN"], !bin.isEmpty { return bin }
        return packageRoot.appendingPathComponent(".build/debug/lectern").path
    }

    /// Runs a program and waits for it (``CheckTool/run(_:_:environment:in:)``); every run of
    /// `lectern` is checked for Foundation's raw error text.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil) throws -> Output {
        let output = try CheckTool.run(executable, arguments, environment: environment, in: directory)
        // Every error path any test leads `lectern` into: a user never sees Foundation's raw error text.
        if executable == lectern || arguments.contains(lectern) {
            CheckRunParityTests.expectNoFoundationText(output.stdout + output.stderr)
        }
        return output
    }

    /// Runs `lectern` with a job store in `db`.
    @discardableResult
    static func lectern(_ arguments: [String], db: URL) throws -> Output {
        try run(lectern, arguments + ["--db", db.path])
    }

    static func decode(_ mp3: URL) throws -> [Int16] { try CheckTool.decode(mp3) }

    static func probe(_ file: URL, _ arguments: [String]) throws -> [String: Any] { try CheckTool.probe(file, arguments) }

    static func mutagenInspect(_ file: URL) throws -> Output { try CheckTool.mutagenInspect(file) }
}

extension Corpus {
    /// `lectern check --text` of the corpus document at `path`, read with no manifest: what a listener
    /// hears. Read once per test run and shared by every suite that asks (each read of a whole book
    /// costs seconds of the run's CPU).
    static func script(_ path: String) throws -> String { try scripts.value(path) }

    private static let scripts = OnceEach<String> { path in
        let result = try Tool.run(Tool.lectern, ["check", "--text", file(path).path])
        guard result.status == 0 else { throw TestFailure("lectern check --text \(path) failed: \(result.stderr)") }
        return result.stdout
    }
}

/// Values computed once per key and shared by every test that asks, the same key's callers waiting
/// for the one computation (a failed one is tried again by the next caller).
final class OnceEach<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `values` and `locks` are guarded by `lock`; each key's computation by its own lock.
    private let lock = NSLock()
    private var values: [String: Value] = [:]
    private var locks: [String: NSLock] = [:]
    private let compute: @Sendable (String) throws -> Value

    init(_ compute: @escaping @Sendable (String) throws -> Value) { self.compute = compute }

    func value(_ key: String) throws -> Value {
        let keyLock = lock.withLock { () -> NSLock in
            if let existing = locks[key] { return existing }
            let made = NSLock()
            locks[key] = made
            return made
        }
        return try keyLock.withLock {
            if let done = lock.withLock({ values[key] }) { return done }
            let value = try compute(key)
            lock.withLock { values[key] = value }
            return value
        }
    }
}

/// A fresh folder for one test, removed when the test's value goes away.
final class Workspace: @unchecked Sendable {
    // @unchecked Sendable: immutable after init.
    let url: URL
    var db: URL { url.appendingPathComponent("lectern.sqlite") }

    init(_ name: String = "lectern") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes a file (creating folders) and returns its URL.
    @discardableResult
    func write(_ path: String, _ text: String) throws -> URL {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: url.appendingPathComponent(path).path) }
}

/// A job rendered by `lectern run`: its sidecar as raw JSON (for the keys the typed ``Sidecar``
/// leaves out: voices, spans, pronunciations) and its MP3, in `out/NAME` of the workspace.
struct RenderedJob {
    let sidecar: [String: Any]
    let mp3: URL

    /// Runs `lectern run --quiet` on the workspace's manifest `NAME.yml` (the job's name is the
    /// file's), requiring success.
    static func run(_ ws: Workspace, _ manifest: URL, arguments: [String] = []) throws -> RenderedJob {
        let run = try Tool.lectern(["run", "--quiet"] + arguments + [manifest.path], db: ws.db)
        try #require(run.status == 0, "\(run.stderr)")
        let name = manifest.deletingPathExtension().lastPathComponent
        let out = ws.url.appendingPathComponent("out/\(name)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("\(name).timings.json")))
        return RenderedJob(sidecar: json as? [String: Any] ?? [:], mp3: out.appendingPathComponent("\(name).mp3"))
    }

    /// Every paragraph of every chapter, in order.
    var paragraphs: [[String: Any]] {
        (sidecar["chapters"] as? [[String: Any]] ?? []).flatMap { $0["paragraphs"] as? [[String: Any]] ?? [] }
    }
}
