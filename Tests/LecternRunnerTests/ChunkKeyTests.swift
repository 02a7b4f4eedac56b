import Foundation
import Testing
import LecternCore
import LecternSpeech
import LecternStore
@testable import LecternRunner

/// The cache key is derived from the request: every field that changes a chunk's audio changes
/// it, and the fields that only place the chunk in the book (or name its output file) do not —
/// checked field by field over the request's encoding, so a field added later is checked too.
struct ChunkKeyTests {
    /// A request with every optional field set (a Piper voice with a model and a speaker, a
    /// pronunciation, a loudness target, a model identity), two items, so that every field of the
    /// encoding is there to change.
    static func request() -> ChunkRequest {
        let piper = ResolvedVoice(name: "en_US-libritts_r-medium", wordsPerMinute: 175, pitch: 1, volume: 1, engine: .piper,
                                  model: "/voices/libritts.onnx", speaker: "p225")
        let espeak = ResolvedVoice(name: "en-gb", wordsPerMinute: 175, pitch: 1, volume: 1)
        let chunk = RenderChunk(index: 4, chapter: 2, items: [
            .init(utterance: 3, textOffset: 0, text: "Hello there.", voice: espeak, silenceBefore: 2205, silenceAfter: 4410, wordCount: 2,
                  pronunciations: [Pronunciation(offset: 0, length: 5, spoken: "[[h@l'oU]]")]),
            .init(utterance: 4, textOffset: 12, text: "Good day.", voice: piper, silenceBefore: 0, silenceAfter: 4410, wordCount: 2),
        ])
        var audio = AudioSettings(bitrate: 64, quality: 7, loudness: LoudnessTarget(integrated: -18, truePeakLimit: -1.5))
        audio.keepsPCM = true
        return ChunkRequest(chunk: chunk, output: "/tmp/chunk.mp3", engine: "espeak-ng 1.51 data /usr/lib/espeak-ng-data phondata 1 2",
                            voiceIdentities: ["/voices/libritts.onnx": "piper sha256 abc noise 0"], sampleRate: 22050, audio: audio)
    }

    /// Where a field lies in the request's JSON encoding; `nil` stands for any array index.
    typealias Path = [String?]

    /// The fields that never change the audio: the output file, and the chunk's place in the book.
    static let placement: [Path] = [["output"], ["chunk", "index"], ["chunk", "chapter"],
                                    ["chunk", "items", nil, "utterance"], ["chunk", "items", nil, "textOffset"],
                                    ["chunk", "items", nil, "wordCount"]]

    @Test func everyFieldButThePlacementChangesTheKeyAndThePlacementDoesNot() throws {
        let base = Self.request()
        let key = try ChunkKey.of(base)
        let json = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(base))
        var changed: [String] = [], placed: [String] = []
        for path in json.leafPaths() {
            let mutated = try JSONDecoder().decode(ChunkRequest.self, from: JSONEncoder().encode(json.changing(at: path)))
            #expect(mutated != base, "changing \(path) changed nothing")
            let isPlacement = Self.placement.contains { pattern in
                pattern.count == path.count && zip(pattern, path).allSatisfy { $0 == nil || $0 == $1 }
            }
            let name = path.map { Int($0) == nil ? $0 : "#" }.joined(separator: ".")
            if isPlacement {
                #expect(try ChunkKey.of(mutated) == key, "\(name) places the chunk and must not change its key")
                placed.append(name)
            } else {
                #expect(try ChunkKey.of(mutated) != key, "\(name) changes the audio and must change the key")
                changed.append(name)
            }
        }
        // The walk saw the whole request: every placement field, and the settings and item fields.
        #expect(placed.count == 3 + 3 * base.chunk.items.count, "\(placed)")
        for field in ["engine", "sampleRate", "bitrate", "quality", "keepsPCM", "formatVersion", "levelerVersion", "loudness.integrated",
                      "loudness.truePeakLimit", "voiceIdentities./voices/libritts.onnx", "chunk.items.#.text", "chunk.items.#.silenceBefore",
                      "chunk.items.#.silenceAfter", "chunk.items.#.voice.name", "chunk.items.#.voice.wordsPerMinute",
                      "chunk.items.#.voice.pitch", "chunk.items.#.voice.volume", "chunk.items.#.voice.engine", "chunk.items.#.voice.speaker",
                      "chunk.items.#.pronunciations.#.spoken", "chunk.items.#.pronunciations.#.offset"] {
            #expect(changed.contains(field), "\(field) was not changed: \(changed)")
        }
    }

    @Test func theKeyIsTheSameWhereverTheChunkIsWrittenOrLies() throws {
        var moved = Self.request()
        moved.output = "/elsewhere/x.mp3"
        moved.chunk.index = 90
        moved.chunk.chapter = 17
        moved.chunk.items[0].utterance = 40
        #expect(try ChunkKey.of(moved) == ChunkKey.of(Self.request()))
        // … and each run's requests carry only the model identities their own items use.
        let all = ["/voices/libritts.onnx": "a", "/voices/other.onnx": "b"]
        #expect(ChunkKey.identities(for: Self.request().chunk, among: all) == ["/voices/libritts.onnx": "a"])
        var espeakOnly = Self.request().chunk
        espeakOnly.items.removeLast()
        #expect(ChunkKey.identities(for: espeakOnly, among: all).isEmpty)
    }

    @Test func theSettingsTextLeavesTheChunkOut() throws {
        var other = Self.request()
        other.chunk.items[0].text = "Something else entirely."
        #expect(try ChunkKey.settings(of: other) == ChunkKey.settings(of: Self.request()))
        var slower = Self.request()
        slower.bitrate = 56
        #expect(try ChunkKey.settings(of: slower) != ChunkKey.settings(of: Self.request()))
    }
}

/// A JSON value, for changing one field of an encoding at a time.
enum JSONValue: Codable, Equatable {
    case bool(Bool), int(Int), double(Double), string(String), array([JSONValue]), object([String: JSONValue]), null

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null } else if let v = try? c.decode(Bool.self) { self = .bool(v) } else if let v = try? c.decode(Int.self) {
            self = .int(v)
        } else if let v = try? c.decode(Double.self) { self = .double(v) } else if let v = try? c.decode(String.self) {
            self = .string(v)
        } else if let v = try? c.decode([JSONValue].self) { self = .array(v) } else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .bool(let v): try c.encode(v)
        case .int(let v): try c.encode(v)
        case .double(let v): try c.encode(v)
        case .string(let v): try c.encode(v)
        case .array(let v): try c.encode(v)
        case .object(let v): try c.encode(v)
        case .null: try c.encodeNil()
        }
    }

    /// The path of every leaf (a number, string or boolean), array indices as their decimal text.
    func leafPaths(_ prefix: [String] = []) -> [[String]] {
        switch self {
        case .array(let items): return items.enumerated().flatMap { $1.leafPaths(prefix + [String($0)]) }
        case .object(let fields): return fields.keys.sorted().flatMap { fields[$0]!.leafPaths(prefix + [$0]) }
        case .null: return []
        default: return [prefix]
        }
    }

    /// The closed sets a request's strings may come from (a voice's engine): such a string is
    /// changed to another member of its set, so that the request still decodes.
    static let closedSets = [VoiceEngine.allCases.map(\.rawValue)]

    /// This value with the leaf at `path` changed to another value of its kind.
    func changing(at path: [String]) -> JSONValue {
        guard let head = path.first else {
            switch self {
            case .bool(let v): return .bool(!v)
            case .int(let v): return .int(v + 1)
            case .double(let v): return .double(v + 0.25)
            case .string(let v): return .string(Self.closedSets.first { $0.contains(v) }?.first { $0 != v } ?? v + "x")
            default: return self
            }
        }
        switch self {
        case .array(var items):
            let i = Int(head)!
            items[i] = items[i].changing(at: Array(path.dropFirst()))
            return .array(items)
        case .object(var fields):
            fields[head] = fields[head]!.changing(at: Array(path.dropFirst()))
            return .object(fields)
        default: return self
        }
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
