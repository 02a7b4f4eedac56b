/// Word times inside a sentence of one engine's audio estimated from another's: the reference
/// engine's word marks (espeak-ng's, exact for its own audio) moved onto the other audio.
///
/// Both audios are cut at their pauses (silences inside the speech span); when they have the same
/// number of pauses of at least some length (tried from the shortest length up), each stretch of
/// speech of the reference is warped linearly onto the same stretch of the target, and a mark inside
/// a pause goes to where the target's speech resumes after it — so a word after a comma starts
/// where the neural voice's speech does. Otherwise the whole speech span is warped linearly.
struct WordTimeWarp {
    /// Speech span of the reference audio and of the target audio, in samples.
    let reference: ClosedRange<Int>
    let target: ClosedRange<Int>
    /// Matching pauses (start..<end in samples) of the reference and the target, in order.
    let pauses: [(reference: Range<Int>, target: Range<Int>)]

    /// Pause lengths tried, in seconds: the shortest at which both audios have as many pauses.
    static let pauseLengths = [0.06, 0.09, 0.13, 0.2, 0.3]

    init(reference: [Int16], target: [Int16], sampleRate: Int = 22050) {
        self.reference = Self.speechSpan(reference)
        self.target = Self.speechSpan(target)
        var matched: [(Range<Int>, Range<Int>)] = []
        for length in Self.pauseLengths {
            let minimum = Int(length * Double(sampleRate))
            let r = Self.pauses(in: reference, span: self.reference, minimum: minimum, sampleRate: sampleRate)
            let t = Self.pauses(in: target, span: self.target, minimum: minimum, sampleRate: sampleRate)
            if r.count == t.count { matched = Array(zip(r, t)); break }
        }
        pauses = matched
    }

    /// Where `sample` of the reference falls in the target.
    func map(_ sample: Int) -> Int {
        var from = (reference.lowerBound, target.lowerBound)
        for pause in pauses {
            if sample < pause.reference.lowerBound {
                return Self.linear(sample, from.0...pause.reference.lowerBound, onto: from.1...pause.target.lowerBound)
            }
            if sample < pause.reference.upperBound { return pause.target.upperBound }
            from = (pause.reference.upperBound, pause.target.upperBound)
        }
        return Self.linear(sample, from.0...reference.upperBound, onto: from.1...target.upperBound)
    }

    private static func linear(_ sample: Int, _ a: ClosedRange<Int>, onto b: ClosedRange<Int>) -> Int {
        let length = max(a.upperBound - a.lowerBound, 1)
        let t = min(max(Double(sample - a.lowerBound) / Double(length), 0), 1)
        return b.lowerBound + Int((t * Double(b.upperBound - b.lowerBound)).rounded())
    }

    /// The first and last samples louder than −40 dBFS (the whole audio when none is).
    static func speechSpan(_ samples: [Int16]) -> ClosedRange<Int> {
        guard let first = samples.firstIndex(where: { abs(Int32($0)) > Int32(threshold) }),
              let last = samples.lastIndex(where: { abs(Int32($0)) > Int32(threshold) }) else {
            return 0...max(samples.count - 1, 0)
        }
        return first...last
    }

    /// −40 dBFS.
    static let threshold: Int16 = 328

    /// The silences of at least `minimum` samples inside `span`: runs of 5 ms windows whose peak is
    /// below −40 dBFS, from the first quiet window to the first loud sample after them.
    static func pauses(in samples: [Int16], span: ClosedRange<Int>, minimum: Int, sampleRate: Int) -> [Range<Int>] {
        let window = max(sampleRate / 200, 1)
        var result: [Range<Int>] = []
        var quietStart: Int?
        var i = span.lowerBound
        while i + window <= span.upperBound {
            let loud = samples[i..<(i + window)].contains { abs(Int32($0)) > Int32(threshold) }
            if !loud {
                if quietStart == nil { quietStart = i }
            } else if let start = quietStart {
                let resume = samples[i..<(i + window)].firstIndex { abs(Int32($0)) > Int32(threshold) } ?? i
                if resume - start >= minimum { result.append(start..<resume) }
                quietStart = nil
            }
            i += window
        }
        return result
    }
}
