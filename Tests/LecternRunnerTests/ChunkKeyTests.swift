import Testing
import LecternCore
import LecternSpeech
import LecternStore
@testable import LecternRunner

/// The cache key depends on everything that changes a chunk's audio and on nothing else.
struct ChunkKeyTests {
    static let voice = ResolvedVoice(name: "en-gb", wordsPerMinute: 175, pitch: 1, volume: 1)
    static let engine = "espeak-ng 1.51 data /usr/lib/x86_64-linux-gnu/espeak-ng-data phondata 1 2"
    static let key = ChunkKey(engineIdentity: engine, sampleRate: 22050, audio: AudioSettings())

    static func chunk(index: Int = 0, chapter: Int = 0, utterance: Int = 0, text: String = "Hello there.",
                      voice: ResolvedVoice = voice, before: Int = 2205, after: Int = 4410) -> RenderChunk {
        RenderChunk(index: index, chapter: chapter, items: [
            .init(utterance: utterance, textOffset: 0, text: text, voice: voice, silenceBefore: before, silenceAfter: after, wordCount: 2),
        ])
    }

    @Test func theChunksPlaceInTheBookDoesNotChangeItsKey() {
        #expect(Self.key.key(for: Self.chunk()) == Self.key.key(for: Self.chunk(index: 7, chapter: 3, utterance: 12)))
    }

    @Test func everythingThatChangesTheAudioChangesTheKey() {
        let base = Self.key.key(for: Self.chunk())
        var pitched = Self.voice
        pitched.pitch = 1.2
        var slower = Self.voice
        slower.wordsPerMinute = 160
        let piper = ResolvedVoice(name: "en_US-libritts_r-medium", wordsPerMinute: 175, pitch: 1, volume: 1, engine: "piper")
        var speaker = piper
        speaker.speaker = "12"
        var otherSpeaker = piper
        otherSpeaker.speaker = "p225"
        let variants = [
            Self.key.key(for: Self.chunk(voice: piper)),
            Self.key.key(for: Self.chunk(voice: speaker)),
            Self.key.key(for: Self.chunk(voice: otherSpeaker)),
            Self.key.key(for: Self.chunk(text: "Hello there!")),
            Self.key.key(for: Self.chunk(voice: pitched)),
            Self.key.key(for: Self.chunk(voice: slower)),
            Self.key.key(for: Self.chunk(before: 2206)),
            Self.key.key(for: Self.chunk(after: 4000)),
            ChunkKey(engineIdentity: "espeak-ng 1.52", sampleRate: 22050, audio: AudioSettings()).key(for: Self.chunk()),
            ChunkKey(engineIdentity: Self.engine, sampleRate: 22050, audio: AudioSettings(bitrate: 80)).key(for: Self.chunk()),
            ChunkKey(engineIdentity: Self.engine, sampleRate: 22050, audio: AudioSettings(quality: 5)).key(for: Self.chunk()),
            ChunkKey(engineIdentity: Self.engine, sampleRate: 16000, audio: AudioSettings()).key(for: Self.chunk()),
        ]
        #expect(!variants.contains(base))
        #expect(Set(variants).count == variants.count)
    }
}

/// Why a chapter was re-rendered, as `lectern status` reports it.
struct ChapterFingerprintTests {
    static let voice = ResolvedVoice(name: "en-gb", wordsPerMinute: 175, pitch: 1, volume: 1)

    static func chapter(_ title: String, _ texts: [String], voice: ResolvedVoice = voice, after: Double = 0.6) -> PlannedChapter {
        PlannedChapter(number: 1, title: title, pause: Pause(before: 0.5, after: 1.5),
                       utterances: texts.map { Utterance(kind: .paragraph, text: $0, voice: voice, preDelay: 0.1, postDelay: after) })
    }

    static func record(_ chapter: PlannedChapter, number: Int) -> ChapterRecord {
        let f = ChapterFingerprint(chapter, settings: "s")
        return ChapterRecord(runId: 1, number: number, title: f.title, contentHash: f.content, startMs: 0, durationMs: 0, sampleCount: 0,
                             textHash: f.text, voiceHash: f.voice, pauseHash: f.pause, settingsHash: f.settings)
    }

    @Test func changesAreNamed() {
        let one = Self.chapter("One", ["First.", "Second."]), two = Self.chapter("Two", ["Third."])
        let previous = [Self.record(one, number: 1), Self.record(two, number: 2)]
        func why(_ c: PlannedChapter, _ number: Int, rendered: Bool = true, forced: Bool = false) -> String {
            ChapterFingerprint(c, settings: "s").change(among: previous, number: number, rendered: rendered, forced: forced)
        }
        #expect(why(one, 1, rendered: false) == "unchanged")
        #expect(why(one, 1) == "unchanged, but not in the cache")
        #expect(why(Self.chapter("One", ["First.", "Second!"]), 1) == "text changed")
        #expect(why(Self.chapter("Uno", ["First.", "Second."]), 1) == "title changed")
        var faster = Self.voice
        faster.wordsPerMinute = 200
        #expect(why(Self.chapter("One", ["First.", "Second."], voice: faster), 1) == "voice changed")
        #expect(why(Self.chapter("One", ["First.", "Second."], after: 0.9), 1) == "pauses changed")
        #expect(ChapterFingerprint(one, settings: "t").change(among: previous, number: 1, rendered: true, forced: false)
                == "engine or audio settings changed")
        #expect(why(two, 1, rendered: false) == "moved from chapter 2")
        #expect(why(Self.chapter("Three", ["Fourth."]), 3) == "new chapter")
        #expect(why(one, 1, forced: true) == "forced (--force)")
        #expect(ChapterFingerprint(one, settings: "s").change(among: [], number: 1, rendered: true, forced: false) == "first render")
    }
}
