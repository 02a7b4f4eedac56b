import Foundation

/// Sets the quiet at a chapter's ends to ACX's lengths: `head` samples before the first sound and
/// `tail` samples after the last, trimming what is longer and padding what is shorter with
/// zeros (which the room tone bed then fills), a block at a time.
///
/// Sound is a block of 10 ms whose RMS exceeds ``threshold`` (−50 dBFS, under the −45 dBFS at
/// which `lectern check --acx` hears sound, so the check finds its room tone within a block of
/// these lengths). Before the first sound only the last `head` quiet samples are kept. After a
/// sound, the first `tail` samples of a pause are given out at once (a pause is either inside the
/// chapter, where it stays, or its end, where they are the tail); the rest of the pause is held
/// until a sound shows it to be inside the chapter, up to ``heldPause`` samples — of a longer
/// pause the remainder is counted, not kept, and comes back as zeros, room tone only.
struct RoomToneEdges {
    static let threshold = -50.0
    /// Seconds of a pause held beyond the tail (memory: 2 bytes per sample).
    static let heldPauseSeconds = 20.0

    let blockLength: Int
    let head: Int
    let tail: Int
    let heldPause: Int
    /// A block's sum of squares (in 16-bit steps) above which it is sound.
    private let loud: Double
    private var partial: [Int16] = []
    /// Input samples classified so far.
    private var consumed = 0
    /// The quiet before the first sound (its last `head` samples, and up to `head` older ones).
    private var leading: [Int16] = []
    /// Input samples removed before the first sound (negative: zeros added), once it is found.
    private(set) var trimmed: Int?
    /// Samples of the current pause after a sound.
    private var pause = 0
    private var held: [Int16] = []
    private var dropped = 0

    init(sampleRate: Int, headSeconds: Double, tailSeconds: Double) {
        blockLength = max(1, sampleRate / 100)
        head = Int((headSeconds * Double(sampleRate)).rounded())
        tail = Int((tailSeconds * Double(sampleRate)).rounded())
        heldPause = Int(Self.heldPauseSeconds * Double(sampleRate))
        let amplitude = pow(10, Self.threshold / 20) * 32768
        loud = amplitude * amplitude * Double(blockLength)
    }

    /// Takes samples and appends those that are ready to go out.
    mutating func process(_ samples: UnsafeBufferPointer<Int16>, into output: inout [Int16]) {
        var i = 0
        if !partial.isEmpty {
            let n = min(blockLength - partial.count, samples.count)
            partial.append(contentsOf: samples[0..<n])
            i = n
            guard partial.count == blockLength else { return }
            let block = partial
            partial.removeAll(keepingCapacity: true)
            block.withUnsafeBufferPointer { take($0, into: &output) }
        }
        while samples.count - i >= blockLength {
            take(UnsafeBufferPointer(rebasing: samples[i..<(i + blockLength)]), into: &output)
            i += blockLength
        }
        partial.append(contentsOf: samples[i...])
    }

    /// Ends the chapter: the last partial block, then the tail set to `tail` samples. A chapter
    /// with no sound becomes `head + tail` zeros.
    mutating func finish(into output: inout [Int16]) {
        if !partial.isEmpty {
            let block = partial
            partial.removeAll()
            block.withUnsafeBufferPointer { take($0, into: &output) }
        }
        if trimmed == nil {
            trimmed = consumed
            output.append(contentsOf: repeatElement(0, count: head + tail))
        } else if pause < tail {
            output.append(contentsOf: repeatElement(0, count: tail - pause))
        }
        held.removeAll()
        dropped = 0
    }

    private mutating func take(_ block: UnsafeBufferPointer<Int16>, into output: inout [Int16]) {
        var squares = 0.0
        for s in block { squares += Double(s) * Double(s) }
        let isSound = squares * Double(blockLength) > loud * Double(block.count)
        defer { consumed += block.count }
        if trimmed == nil {
            if isSound {
                if leading.count > head { leading.removeFirst(leading.count - head) }
                trimmed = consumed - head
                output.append(contentsOf: repeatElement(0, count: head - leading.count))
                output.append(contentsOf: leading)
                output.append(contentsOf: block)
                leading = []
            } else {
                leading.append(contentsOf: block)
                if leading.count > 2 * head { leading.removeFirst(leading.count - head) }
            }
            return
        }
        if isSound {
            output.append(contentsOf: held)
            output.append(contentsOf: repeatElement(0, count: dropped))
            held.removeAll(keepingCapacity: true)
            dropped = 0
            pause = 0
            output.append(contentsOf: block)
            return
        }
        let direct = max(0, min(block.count, tail - pause))
        output.append(contentsOf: block[0..<direct])
        let rest = block.count - direct
        let keep = min(rest, heldPause - held.count)
        held.append(contentsOf: block[direct..<(direct + keep)])
        dropped += rest - keep
        pause += block.count
    }
}
