import Foundation

/// Measures MP3 files against ACX's audio submission requirements (``ACXRule``).
///
/// A file's facts come from its frame headers (``MP3StreamFacts``) and its levels from its
/// decoded samples (``PCMStatistics``), so the decisions here are plain functions of values and
/// are tested without audio.
public enum ACXCheck {
    /// The rules one file was measured against.
    public struct FileReport: Sendable, Codable, Equatable {
        /// The file's name within the folder.
        public var file: String
        /// Channels (1 mono, 2 stereo), for the folder's ``ACXRule/channels`` rule.
        public var channels: Int
        public var results: [ACXRule.Result]
        /// Whether every rule passed.
        public var passed: Bool

        public init(file: String, channels: Int, results: [ACXRule.Result]) {
            self.file = file
            self.channels = channels
            self.results = results
            passed = results.allSatisfy(\.passed)
        }
    }

    /// A folder's files and the rules that span them.
    public struct Report: Sendable, Codable, Equatable {
        public var folder: String
        public var files: [FileReport]
        public var folderResults: [ACXRule.Result]
        /// Whether every file and folder rule passed.
        public var passed: Bool

        public init(folder: String, files: [FileReport], folderResults: [ACXRule.Result]) {
            self.folder = folder
            self.files = files
            self.folderResults = folderResults
            passed = files.allSatisfy(\.passed) && folderResults.allSatisfy(\.passed)
        }
    }

    /// Every per-file rule, measured on one file.
    public static func results(facts: MP3StreamFacts, statistics s: PCMStatistics) -> [ACXRule.Result] {
        let rates = facts.sampleRates.sorted().map(String.init).joined(separator: ", ")
        let bitrates = facts.bitrates.sorted().map(String.init).joined(separator: ", ")
        let minutes = facts.seconds / 60
        return [
            .init(.sampleRate, measured: "\(rates) Hz", value: facts.sampleRate.map(Double.init),
                  passed: facts.sampleRates == [44100]),
            .init(.bitrate, measured: "\(bitrates) kbit/s", value: facts.bitrates.min().map(Double.init),
                  passed: (facts.bitrates.min() ?? 0) >= 192),
            .init(.constantBitrate, measured: facts.isConstantBitrate ? "CBR" : facts.hasVBRTag ? "VBR (Xing tag)" : "VBR (\(facts.bitrates.count) bit rates)",
                  value: nil, passed: facts.isConstantBitrate),
            .init(.duration, measured: String(format: "%.1f min", minutes), value: minutes, passed: minutes <= 120),
            .init(.rms, measured: decibels(s.rms), value: s.rms, passed: s.rms >= -23 && s.rms <= -18),
            .init(.peak, measured: decibels(s.peak), value: s.peak, passed: s.peak <= -3),
            .init(.noiseFloor, measured: decibels(s.noiseFloor), value: s.noiseFloor, passed: s.noiseFloor <= -60),
            .init(.noDigitalSilence, measured: seconds(s.longestDigitalSilence), value: s.longestDigitalSilence,
                  passed: s.longestDigitalSilence < 0.25),
            .init(.headRoomTone, measured: seconds(s.headRoomTone), value: s.headRoomTone,
                  passed: (0.5...1).contains(centiseconds(s.headRoomTone))),
            .init(.tailRoomTone, measured: seconds(s.tailRoomTone), value: s.tailRoomTone,
                  passed: (1...5).contains(centiseconds(s.tailRoomTone))),
        ]
    }

    /// The rules that span the folder: all files mono, or all stereo.
    public static func folderResults(_ files: [FileReport]) -> [ACXRule.Result] {
        let mono = files.filter { $0.channels == 1 }.count, stereo = files.count - mono
        let measured = [mono > 0 ? "\(mono) mono" : nil, stereo > 0 ? "\(stereo) stereo" : nil].compactMap { $0 }.joined(separator: ", ")
        return [.init(.channels, measured: measured, value: nil, passed: mono == 0 || stereo == 0)]
    }

    /// Measures one MP3 file: its frame headers, then its decoded samples, streamed.
    ///
    /// - throws: ``AudioError`` when the file is not an MP3 or cannot be decoded.
    public static func measure(_ url: URL) throws -> FileReport {
        let facts = try MP3StreamFacts(contentsOf: url)
        let statistics = try SoundFileReader.statistics(of: url)
        return FileReport(file: url.lastPathComponent, channels: facts.channels ?? statistics.channels,
                          results: results(facts: facts, statistics: statistics))
    }

    /// Measures every `.mp3` file directly in `folder`, in name order.
    ///
    /// - throws: ``AudioError`` when the folder cannot be listed, holds no MP3 file, or a file
    ///   cannot be decoded.
    public static func check(folder: URL) throws -> Report {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder.path) } catch {
            throw AudioError("cannot list the folder \(folder.path)")
        }
        let mp3s = names.filter { $0.lowercased().hasSuffix(".mp3") && !$0.hasPrefix(".") }.sorted()
        guard !mp3s.isEmpty else { throw AudioError("\(folder.path) holds no .mp3 file to check") }
        let files = try mp3s.map { try measure(folder.appendingPathComponent($0)) }
        return Report(folder: folder.path, files: files, folderResults: folderResults(files))
    }

    static func decibels(_ value: Double) -> String {
        value.isFinite ? String(format: "%.1f dB", value) : "-inf dB"
    }

    static func seconds(_ value: Double) -> String { String(format: "%.2f s", value) }

    /// Room tone is found in blocks of 10 ms, so it is judged to the hundredth of a second shown.
    static func centiseconds(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}
