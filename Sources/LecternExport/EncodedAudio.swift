import Foundation
import LecternCore
import LecternAudio

/// The encoders of the formats made from the book's PCM (``AudioFormat/needsPCM``), with the
/// bitrates each gets from the manifest's `bitrate`: M4B's AAC-LC at the MP3's bitrate, Opus at
/// half of it (at least 24 kbit/s), where Opus speech is as clear as the MP3.
public enum EncodedAudio {
    /// An encoder writing `format` to `url` (a temporary path the caller renames into place);
    /// Opus's encoder uses `threads` threads (the others one).
    public static func writer(_ format: AudioFormat, url: URL, sampleRate: Int, bitrate kbps: Int,
                              metadata: AudioMetadata, threads: Int = 1) throws -> any PCMSink {
        switch format {
        case .mp3: throw ExportError("MP3 is assembled from the chunks' streams, not encoded from PCM")
        case .m4b: return try M4BWriter(url: url, sampleRate: sampleRate, bitrate: kbps * 1000, metadata: metadata)
        case .opus: return try OpusWriter(url: url, sampleRate: sampleRate, bitrate: opusBitrate(kbps) * 1000, metadata: metadata,
                                          threads: threads)
        }
    }

    /// An ACX master of one chapter (`profile: acx`): 44.1 kHz, 192 kbit/s CBR MP3 with room tone.
    public static func acxMaster(url: URL, sampleRate: Int, metadata: AudioMetadata) throws -> any PCMSink {
        try ACXMasterWriter(url: url, inputSampleRate: sampleRate, metadata: metadata)
    }

    /// Opus's bitrate in kbit/s for an MP3 bitrate.
    public static func opusBitrate(_ mp3: Int) -> Int { max(24, mp3 / 2) }
}
