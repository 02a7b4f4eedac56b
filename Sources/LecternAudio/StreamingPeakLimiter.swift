import Foundation

/// ``PeakLimiter`` over a stream, a block at a time in bounded memory, with the gains the
/// limiter would give the whole stream at once.
///
/// A sample's gain depends on the samples within 2 × `window` after it and within
/// 2 × `window` + 1 / `release` before it (after that long a turn-down has released fully), so
/// each block is limited together with that much of the stream around it, unlimited, and only
/// the block is given out. Samples are held back (at most a block and the look-ahead) but not
/// moved: what comes out is the same length, sample for sample.
struct StreamingPeakLimiter {
    let limiter: PeakLimiter
    /// Samples given out per block.
    let block: Int
    /// Context needed before and after a block.
    let before: Int, after: Int
    /// Unlimited samples: the last `context` already given out, then those held back.
    private var raw: [Float] = []
    private var context = 0
    private var work: [Float] = []

    init(ceilingDB: Double, sampleRate: Int) {
        limiter = PeakLimiter(ceilingDB: ceilingDB, sampleRate: sampleRate)
        block = sampleRate
        after = 2 * limiter.window
        before = 2 * limiter.window + Int((1 / limiter.release).rounded(.up)) + 1
    }

    /// Takes samples and appends the limited samples that are ready.
    mutating func process(_ samples: [Float], into output: inout [Float]) {
        raw.append(contentsOf: samples)
        while raw.count - context >= block + after {
            work.removeAll(keepingCapacity: true)
            work.append(contentsOf: raw[0..<(context + block + after)])
            limiter.apply(to: &work)
            output.append(contentsOf: work[context..<(context + block)])
            let drop = max(0, context + block - before)
            raw.removeFirst(drop)
            context = context + block - drop
        }
    }

    /// Gives out every sample still held back.
    mutating func finish(into output: inout [Float]) {
        guard raw.count > context else { return }
        limiter.apply(to: &raw)
        output.append(contentsOf: raw[context...])
        raw.removeAll()
        context = 0
    }
}
