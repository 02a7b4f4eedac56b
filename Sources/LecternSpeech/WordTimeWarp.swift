/// Word times inside a sentence of one engine's audio estimated from another's: the reference
/// engine's word marks (espeak-ng's, exact for its own audio) moved onto the other audio by a
/// linear warp of the reference's speech span (first to last audible sample) onto the other's.
struct WordTimeWarp {
    /// Speech span of the reference audio and of the target audio, in samples.
    let reference: ClosedRange<Int>
    let target: ClosedRange<Int>

    init(reference: [Int16], target: [Int16]) {
        self.reference = Self.speechSpan(reference)
        self.target = Self.speechSpan(target)
    }

    /// Where `sample` of the reference falls in the target.
    func map(_ sample: Int) -> Int {
        let length = max(reference.upperBound - reference.lowerBound, 1)
        let t = min(max(Double(sample - reference.lowerBound) / Double(length), 0), 1)
        return target.lowerBound + Int((t * Double(target.upperBound - target.lowerBound)).rounded())
    }

    /// The first and last samples louder than −40 dBFS (the whole audio when none is).
    static func speechSpan(_ samples: [Int16]) -> ClosedRange<Int> {
        let threshold: Int16 = 328
        guard let first = samples.firstIndex(where: { abs(Int32($0)) > Int32(threshold) }),
              let last = samples.lastIndex(where: { abs(Int32($0)) > Int32(threshold) }) else {
            return 0...max(samples.count - 1, 0)
        }
        return first...last
    }
}
