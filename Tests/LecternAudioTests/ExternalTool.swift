import Foundation

/// Runs the independent tools (ffprobe, mp3val, mutagen, opusinfo, opusdec) that check the files these tests write.
enum ExternalTool {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs a program found on PATH (or at an absolute path) and waits for it; stdout and stderr
    /// are read concurrently so neither pipe fills.
    static func run(_ executable: String, _ arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/env")
        process.arguments = executable.hasPrefix("/") ? arguments : [executable] + arguments
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

    /// The Python that has mutagen: Debian's (python3-mutagen), not one earlier on PATH.
    static var python: String {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "python3"
    }
}
