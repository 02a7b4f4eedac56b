import Foundation
import LecternCore
import LecternSpeech
import LecternAudio

/// Renders one chunk in the current process: synthesizes its items, trims each to its speech,
/// surrounds it with its silences and encodes everything into one MP3 stream file.
///
/// This is what a worker process does for each request. PCM is encoded item by item, so a
/// worker holds at most one item's audio.
public struct ChunkRenderer: Sendable {
    public let engine: EspeakEngine

    public init(engine: EspeakEngine) { self.engine = engine }

    public func render(_ request: ChunkRequest) throws -> ChunkResult {
        let url = URL(fileURLWithPath: request.output)
        let writer = try MP3StreamWriter(url: url, sampleRate: engine.sampleRate,
                                         settings: AudioSettings(bitrate: request.bitrate, quality: request.quality),
                                         writesTag: request.writesTag)
        var position = 0
        var layouts: [ChunkResult.ItemLayout] = []
        let items = request.chunk.items
        for (i, item) in items.enumerated() {
            let start = position
            try writer.writeSilence(item.silenceBefore)
            position += item.silenceBefore
            let synthesis = try engine.synthesize(item.text, voice: item.voice)
            let speech = SilenceTrimmer.speechRange(synthesis.samples)
            try writer.write(Array(synthesis.samples[speech]))
            let marks = synthesis.words.map { [$0.textOffset, $0.sample - speech.lowerBound] }
            layouts.append(.init(start: start, speechStart: position, speechLength: speech.count, marks: marks))
            position += speech.count
            var after = item.silenceAfter
            if i == items.count - 1, request.compensatesSeam {
                after = seamCompensated(contentEnd: position, silence: after, frame: writer.samplesPerFrame, delay: writer.encoderDelay)
            }
            try writer.writeSilence(after)
            position += after
        }
        try writer.finish()
        let (frames, bytes) = try MP3Frames.count(in: url)
        return ChunkResult(index: request.chunk.index, sampleCount: position, audioFrames: frames - (request.writesTag ? 1 : 0),
                           samplesPerFrame: writer.samplesPerFrame, encoderDelay: writer.encoderDelay, byteCount: bytes,
                           items: layouts)
    }

    /// The trailing silence to write so that the chunk's decoded length (all its frames, since a
    /// decoder plays the encoder delay and padding of every chunk after the first) is as close as
    /// possible to the designed length `contentEnd + silence`.
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
