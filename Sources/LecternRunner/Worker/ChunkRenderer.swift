import Foundation
import LecternCore
import LecternSpeech
import LecternAudio

/// Renders one chunk in the current process: synthesizes its items, trims each to its speech,
/// surrounds it with its silences and encodes everything into one MP3 stream file.
///
/// This is what a worker process does for each request. PCM is encoded item by item, so a
/// worker holds at most one item's audio (with a loudness target, `loudness:`, the chunk's audio —
/// about a minute — is gathered and levelled as a whole first). The stream is the same wherever the chunk lies in a
/// book (see ``ChunkRequest``), so it can be cached under its ``ChunkKey``.
public struct ChunkRenderer: Sendable {
    public let engine: EspeakEngine
    /// The engine of each item's voice (espeak-ng, or a Piper model loaded on first use).
    public let engines: SpeechEngines
    /// Called between the steps of rendering, for tests that kill the run at a given point.
    public var checkpoint: (@Sendable (_ step: Step, _ chunk: Int) -> Void)?

    /// Points inside a chunk's rendering.
    public enum Step: String, Sendable {
        /// An item has been synthesized and not yet encoded.
        case synthesis
        /// Half of the chunk's items are encoded into the stream file.
        case encoding
    }

    /// The version of the stream layout this renderer writes; part of every ``ChunkKey``, so
    /// changing how chunks are rendered (trimming, seams, tags, the engine reloaded per chunk since 3)
    /// invalidates the cache.
    public static let formatVersion = 3

    /// The version of ``LoudnessLeveler``'s method; part of the key of every levelled chunk.
    public static let levelerVersion = 4

    /// Samples handed to the encoder at once.
    static let encodingBlock = 1 << 16

    public init(engine: EspeakEngine, checkpoint: (@Sendable (Step, Int) -> Void)? = nil) {
        self.engine = engine
        self.engines = SpeechEngines(espeak: engine)
        self.checkpoint = checkpoint
    }

    /// Renders `request` into its stream file, holding the engine throughout
    /// (``EspeakEngine/exclusively(_:)``): the chunk's audio is a function of the request even
    /// when other threads of this process synthesize too (``InProcessRenderer``, tests).
    ///
    /// - throws: ``RunError`` for a request made for another renderer or sample rate; the
    ///   speech and audio modules' errors.
    public func render(_ request: ChunkRequest) throws -> ChunkResult {
        try engine.exclusively { try renderHoldingEngine(request) }
    }

    private func renderHoldingEngine(_ request: ChunkRequest) throws -> ChunkResult {
        // The chunk is cached under a key made from the request: audio made otherwise than the
        // request says (by another version of Lectern, at another rate) must not be stored under it.
        guard request.formatVersion == Self.formatVersion, request.levelerVersion.map({ $0 == Self.levelerVersion }) ?? true else {
            throw RunError("this worker renders chunks in format \(Self.formatVersion) (leveller \(Self.levelerVersion)), the run asked for "
                           + "format \(request.formatVersion) (leveller \(request.levelerVersion.map(String.init) ?? "none")): "
                           + "run workers of the same Lectern version as the run")
        }
        guard request.sampleRate == engine.sampleRate else {
            throw RunError("the run expects audio at \(request.sampleRate) Hz, this worker's espeak-ng makes \(engine.sampleRate) Hz")
        }
        // A chunk's audio must be a function of its key, not of the chunks this worker rendered before.
        try engine.reset()
        engines.reset()
        let url = URL(fileURLWithPath: request.output)
        let writer = try MP3StreamWriter(url: url, sampleRate: engine.sampleRate,
                                         settings: AudioSettings(bitrate: request.bitrate, quality: request.quality),
                                         writesTag: true)
        let pcm = request.keepsPCM ? try PCMChunkFile(url: URL(fileURLWithPath: request.pcmOutput), sampleRate: engine.sampleRate) : nil
        var position = 0
        var layouts: [ChunkResult.ItemLayout] = []
        let items = request.chunk.items
        // With a loudness target the chunk's audio is gathered, levelled as a whole, then encoded.
        let workspace = LoudnessLeveler.Workspace.current
        var gathered: [Int16]? = nil
        if request.loudness != nil {
            gathered = workspace.samples
            workspace.samples = []  // first, so that emptying it keeps its storage rather than copying it
            gathered!.removeAll(keepingCapacity: true)
        }
        func emit(_ samples: ArraySlice<Int16>) throws {
            if gathered != nil { gathered!.appendSamples(samples) } else {
                try writer.write(Array(samples))
                try pcm?.write(samples)
            }
        }
        func emitSilence(_ count: Int) throws {
            if gathered != nil { gathered!.appendSilence(count) } else {
                try writer.writeSilence(count)
                try pcm?.writeSilence(count)
            }
        }
        for (i, item) in items.enumerated() {
            let start = position
            try emitSilence(item.silenceBefore)
            position += item.silenceBefore
            if i == items.count / 2 { checkpoint?(.encoding, request.chunk.index) }
            let speaker = try engines.engine(for: item.voice)
            guard speaker.sampleRate == engine.sampleRate else {
                throw SpeechError("the voice \(item.voice.name) speaks at \(speaker.sampleRate) Hz, not the book's \(engine.sampleRate) Hz")
            }
            let synthesis = try speaker.synthesize(item.text, voice: item.voice, pronunciations: item.pronunciations)
            checkpoint?(.synthesis, request.chunk.index)
            let speech = SilenceTrimmer.speechRange(synthesis.samples)
            // In blocks, so that neither a copy of the item's audio nor an encoder buffer for all of it is made.
            for block in stride(from: speech.lowerBound, to: speech.upperBound, by: Self.encodingBlock) {
                try emit(synthesis.samples[block..<min(block + Self.encodingBlock, speech.upperBound)])
            }
            // An estimated time (a Piper voice's word inside a sentence) carries a third value, 1.
            let marks = synthesis.words.map { [$0.textOffset, $0.sample - speech.lowerBound] + ($0.estimated ? [1] : []) }
            layouts.append(.init(start: start, speechStart: position, speechLength: speech.count, marks: marks))
            position += speech.count
            var after = item.silenceAfter
            if i == items.count - 1 {
                after = seamCompensated(contentEnd: position, silence: after, frame: writer.samplesPerFrame, delay: writer.encoderDelay)
            }
            try emitSilence(after)
            position += after
        }
        if var levelled = gathered, let target = request.loudness {
            gathered = nil  // the samples are levelled in place, not copied
            try LoudnessLeveler.level(&levelled, sampleRate: engine.sampleRate, target: target, workspace: workspace)
            for block in stride(from: 0, to: levelled.count, by: Self.encodingBlock) {
                let samples = levelled[block..<min(block + Self.encodingBlock, levelled.count)]
                try writer.write(Array(samples))
                try pcm?.write(samples)
            }
            workspace.samples = levelled  // its storage, for the next chunk
        }
        try writer.finish()
        let pcmBytes = try pcm?.finish()
        let (frames, bytes, tagBytes) = try MP3Frames.count(in: url)
        var result = ChunkResult(index: request.chunk.index, sampleCount: position, audioFrames: frames - 1,
                                 samplesPerFrame: writer.samplesPerFrame, encoderDelay: writer.encoderDelay, byteCount: bytes,
                                 tagBytes: tagBytes, items: layouts)
        result.pcmBytes = pcmBytes
        return result
    }

    /// The trailing silence to write so that the chunk's decoded length (all its frames, since a
    /// decoder plays the encoder delay and padding of every chunk after the first) is as close as
    /// possible to the designed length `contentEnd + silence`. (The book's last chunk is no
    /// exception, so that it stays reusable anywhere: the book's final silence is up to about two
    /// frames shorter than designed, and every time still comes from the actual counts.)
    ///
    /// LAME emits ⌊(n + delay + 2·frame) / frame⌋ frames for n samples; the largest n that gives
    /// F frames is F·frame − delay − frame − 1.
    func seamCompensated(contentEnd: Int, silence: Int, frame: Int, delay: Int) -> Int {
        let designed = contentEnd + silence
        let frames = Int((Double(designed) / Double(frame)).rounded())
        let n = frames * frame - delay - frame - 1
        return max(0, n - contentEnd)
    }
}
