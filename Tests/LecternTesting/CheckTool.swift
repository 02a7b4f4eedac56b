import Foundation

/// Runs the independent programs that check Lectern's outputs (ffmpeg, ffprobe, mp3val,
/// mutagen), so that a test judges a book by what other software makes of it.
public enum CheckTool {
    /// What a program printed, and how it exited.
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    /// Runs a program (a bare name is looked up on the PATH) and waits for it; stdout and stderr
    /// are read concurrently so neither pipe fills.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                           in directory: URL? = nil) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/env")
        process.arguments = executable.hasPrefix("/") ? arguments : [executable] + arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Decodes an MP3 with ffmpeg into 16-bit mono samples at 22050 Hz.
    public static func decode(_ mp3: URL) throws -> [Int16] {
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("decoded-\(UUID().uuidString).raw")
        defer { try? FileManager.default.removeItem(at: raw) }
        let result = try run("ffmpeg", ["-v", "error", "-y", "-i", mp3.path, "-f", "s16le", "-acodec", "pcm_s16le", "-ac", "1", raw.path])
        guard result.status == 0 else { throw TestFailure("ffmpeg could not decode \(mp3.path): \(result.stderr)") }
        let data = try Data(contentsOf: raw)
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// ffprobe's JSON for a file.
    public static func probe(_ file: URL, _ arguments: [String]) throws -> [String: Any] {
        let result = try run("ffprobe", ["-v", "error", "-of", "json"] + arguments + [file.path])
        guard result.status == 0 else { throw TestFailure("ffprobe failed on \(file.path): \(result.stderr)") }
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
    }

    /// mutagen's view of an audio file's tags (`mutagen-inspect`).
    public static func mutagenInspect(_ file: URL) throws -> Output {
        let system = "/usr/bin/mutagen-inspect"
        return try FileManager.default.isExecutableFile(atPath: system) ? run(system, [file.path]) : run("mutagen-inspect", [file.path])
    }
}

/// A test's own failure: what it could not set up or read, as one line.
public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
