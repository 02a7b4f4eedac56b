import Foundation
import Testing
import LecternTesting

/// The Piper installation `make piper` makes in the checkout (`.piper/`, or `$LECTERN_PIPER_HOME`),
/// and the measurements the neural-voice tests share.
enum NeuralVoice {
    static var folder: URL {
        if let home = ProcessInfo.processInfo.environment["LECTERN_PIPER_HOME"], !home.isEmpty { return URL(fileURLWithPath: home) }
        return Tool.packageRoot.appendingPathComponent(".piper")
    }

    /// Why the tests cannot run here, or nil.
    static var missing: String? {
        let needed = ["sherpa_onnx/lib/libonnxruntime.so", "voices/en_US-joe-medium.onnx", "voices/en_US-joe-medium.onnx.json"]
        for file in needed where !FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path) {
            return "no \(folder.appendingPathComponent(file).path): run `make piper` (make test does) for the Piper voice tests"
        }
        return nil
    }

    /// The committed two chapters of Alice.
    static var aliceText: String {
        get throws { try String(contentsOf: Tool.packageRoot.appendingPathComponent("Jobs/texts/alice-chapters-1-2.txt"), encoding: .utf8) }
    }

    /// No word of a Piper paragraph is flagged estimated (the prepared voice gives its phonemes'
    /// durations, so every word is timed exactly). Returns the number of words checked.
    @discardableResult
    static func expectNoWordEstimated(_ job: RenderedJob, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        var checked = 0, flagged = 0
        for paragraph in job.paragraphs where paragraph["engine"] as? String == "piper" {
            for sentence in paragraph["sentences"] as? [[String: Any]] ?? [] {
                for word in sentence["words"] as? [[String: Any]] ?? [] {
                    if word["estimated"] as? Bool == true { flagged += 1 }
                    checked += 1
                }
            }
        }
        #expect(flagged == 0, "\(flagged) of \(checked) Piper words flagged estimated", sourceLocation: sourceLocation)
        return checked
    }

    /// Sentences after a paragraph's first whose speech follows a silence of at least 0.15 s in the
    /// decoded audio start within 40 ms of it. Returns how many were checked.
    static func expectSentenceOnsetsMatch(_ pcm: [Int16], _ sidecar: Sidecar, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        let rate = sidecar.sampleRate
        var checked = 0
        for chapter in sidecar.chapters {
            for paragraph in chapter.paragraphs {
                for (previous, sentence) in zip(paragraph.sentences, paragraph.sentences.dropFirst()) {
                    guard let last = previous.words.last else { continue }
                    let from = max(last.start * rate / 1000, sentence.start * rate / 1000 - rate * 4 / 10)
                    guard let onset = speechOnset(in: pcm, from: from, to: sentence.start * rate / 1000 + rate / 5,
                                                  sampleRate: rate, minimumSilence: 0.15) else { continue }
                    let onsetMs = Double(onset) * 1000 / Double(rate)
                    #expect(abs(onsetMs - Double(sentence.start)) <= 40,
                            "\(chapter.title): a sentence's speech starts at \(onsetMs) ms, the sidecar says \(sentence.start) ms",
                            sourceLocation: sourceLocation)
                    checked += 1
                }
            }
        }
        return checked
    }

    /// The error of word times after an audible pause inside a sentence: for each word but a
    /// sentence's first, where speech resumes after at least 0.12 s of silence between the previous
    /// word's start (plus 0.1 s) and this word's start plus 0.3 s, minus the sidecar's start, in ms.
    static func wordErrorsAfterPauses(_ pcm: [Int16], _ sidecar: Sidecar) -> [Double] {
        let rate = sidecar.sampleRate
        var errors: [Double] = []
        for chapter in sidecar.chapters {
            for paragraph in chapter.paragraphs {
                for sentence in paragraph.sentences {
                    for (previous, word) in zip(sentence.words, sentence.words.dropFirst()) {
                        let from = (previous.start + 100) * rate / 1000, to = (word.start + 300) * rate / 1000
                        guard from < to, let onset = speechOnset(in: pcm, from: from, to: to, sampleRate: rate, minimumSilence: 0.12),
                              onset * 1000 / rate < word.end else { continue }
                        errors.append(Double(onset) * 1000 / Double(rate) - Double(word.start))
                    }
                }
            }
        }
        return errors
    }

    /// Median, 95th percentile and maximum of the absolute values.
    static func summary(_ values: [Double]) -> (median: Double, p95: Double, max: Double) {
        let sorted = values.map(abs).sorted()
        guard !sorted.isEmpty else { return (0, 0, 0) }
        func at(_ q: Double) -> Double { sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * q).rounded()))] }
        return (at(0.5), at(0.95), sorted.last!)
    }
}
