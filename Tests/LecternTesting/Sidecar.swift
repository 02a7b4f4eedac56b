import Foundation

/// The parts of the timing sidecar the tests read, decoded independently of Lectern's own types.
public struct Sidecar: Decodable, Sendable {
    public struct Units: Decodable, Sendable { public var time: String; public var textOffset: String }
    public struct Chapter: Decodable, Sendable { public var number: Int; public var title: String; public var start: Int; public var end: Int; public var paragraphs: [Paragraph] }
    public struct Paragraph: Decodable, Sendable { public var kind: String; public var text: String; public var start: Int; public var end: Int; public var sentences: [Sentence] }
    public struct Sentence: Decodable, Sendable { public var offset: Int; public var length: Int; public var start: Int; public var end: Int; public var words: [Word] }
    public struct Word: Decodable, Sendable { public var offset: Int; public var length: Int; public var start: Int; public var end: Int }
    /// Text left out; `words` set: a summary of what lies outside an excerpt's cut (`text` its
    /// first and last words), not the text itself.
    public struct Skipped: Decodable, Sendable { public var reason: String; public var text: String; public var words: Int? = nil; public var cut: String? = nil }

    public var units: Units
    public var sampleRate: Int
    public var sampleCount: Int
    public var durationMs: Int
    public var chapters: [Chapter]
    public var skipped: [Skipped]

    public static func load(_ url: URL) throws -> Sidecar {
        try JSONDecoder().decode(Sidecar.self, from: Data(contentsOf: url))
    }
}

extension Sidecar.Paragraph {
    public var words: [Sidecar.Word] { sentences.flatMap(\.words) }
    /// A word's text, sliced by its UTF-16 range.
    public func text(of word: Sidecar.Word) -> String {
        let units = Array(text.utf16)
        return String(decoding: units[word.offset..<(word.offset + word.length)], as: UTF16.self)
    }
}

/// Counts words the way the sidecar promises to: whitespace- or dash-separated runs that
/// contain a letter or digit. Written separately from Lectern's tokenizer on purpose.
public func independentWords(_ text: String) -> [String] {
    // A dash, `--` as a typewriter writes it included, parts two words as a space does.
    text.replacingOccurrences(of: "-{2,}", with: " ", options: .regularExpression)
        .components(separatedBy: CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "\u{2013}\u{2014}\u{2015}")))
        .map { $0.replacingOccurrences(of: "_", with: "") }
        .filter { $0.rangeOfCharacter(from: .alphanumerics) != nil }
}

/// Finds where speech resumes after a pause: after at least `minimumSilence` seconds of 5 ms
/// windows whose RMS is below −50 dBFS, the first sample of magnitude −50 dBFS or more.
public func speechOnset(in pcm: [Int16], from: Int, to: Int, sampleRate: Int, minimumSilence: Double = 0.2) -> Int? {
    let window = sampleRate / 200
    let quiet = 32768 * pow(10, -50.0 / 20)
    func rms(_ start: Int) -> Double {
        var sum = 0.0
        for i in start..<min(start + window, pcm.count) { sum += Double(pcm[i]) * Double(pcm[i]) }
        return (sum / Double(window)).squareRoot()
    }
    var silentRun = 0
    var i = max(0, from)
    while i + window <= min(to, pcm.count) {
        if rms(i) < quiet {
            silentRun += window
        } else if Double(silentRun) >= minimumSilence * Double(sampleRate) {
            var j = i
            while j < i + window, abs(Double(pcm[j])) < quiet { j += 1 }
            return j
        } else {
            silentRun = 0
        }
        i += window
    }
    return nil
}
