import Foundation
import Testing
import LecternCore

/// A play's cast (issue 26, item 4): persona names, the pool's choice, and the manifest's
/// `cast:`, `cast_pool:` and `speaker_labels:` keys.
@Suite struct CastKeyTests {
    func load(_ yaml: String) throws -> Manifest {
        let dir = try TempDir()
        defer { dir.remove() }
        try dir.write("a.txt")
        return try ManifestLoader(configDirectory: nil).load(try dir.write("book.yml", "title: T\nsources: [a.txt]\n" + yaml))
    }

    func error(_ yaml: String) throws -> ManifestError {
        do {
            _ = try load(yaml)
        } catch let error as ManifestError {
            return error
        }
        Issue.record("accepted:\n\(yaml)")
        throw ManifestError(file: "", message: "accepted")
    }

    @Test func everySpellingOfALabelIsOnePersona() {
        for label in ["LADY MACBETH.", "Lady Macbeth", "LADY  MACBETH", "lady macbeth:", " LADY MACBETH. "] {
            #expect(Persona.key(label) == "LADY MACBETH", "\(label)")
        }
        #expect(Persona.key("D’ARCY.") == Persona.key("D'ARCY"))
        #expect(Persona(label: "LADY MACBETH.")?.name == "Lady Macbeth")
        #expect(Persona(label: "MRS. UPJOHN.")?.name == "Mrs. Upjohn")
        #expect(Persona(label: "VON RETTENMAYER.")?.name == "Von Rettenmayer")
        #expect(Persona(label: "O'BRIEN.")?.name == "O'Brien")
        #expect(Persona(label: "JEAN-PAUL.")?.name == "Jean-Paul")
        #expect(Persona(label: "SOME OF THE OTHERS.")?.name == "Some of the Others")
        #expect(Persona(label: "THE BEARDED WAITER.")?.name == "The Bearded Waiter")
        #expect(Persona(label: "Hamlet")?.name == "Hamlet", "a name not in capitals is shown as written")
        #expect(Persona(label: "de Castro.")?.name == "de Castro")
        #expect(Persona(label: "...") == nil)
    }

    @Test func thePoolIsTheSameInEveryRunAndDistinctWhileItHasRoom() {
        let pool = CastPool(voices: CastPool.defaultPool(narrator: VoiceSettings(name: "en-gb")))
        #expect(pool.voices.count == CastPool.espeakVariants.count - 1 && !pool.voices.contains { $0.name == "en-gb+m6" },
                "the bare voice's own variant is left out")
        #expect(pool.voices.allSatisfy { $0.name!.hasPrefix("en-gb+") })
        let names = ["LILY", "FARNCOMBE", "ROPER", "MRS. UPJOHN", "JEYES", "JIMMIE", "VON RETTENMAYER", "DE CASTRO", "COOLING", "ENID"]
        let personae = names.enumerated().map { (persona: Persona(label: $0.element)!, speeches: 100 - $0.offset) }
        let first = pool.assign(personae, avoiding: ["en-gb"])
        // The same from the names alone, whatever order they come in.
        #expect(pool.assign(personae.reversed(), avoiding: ["en-gb"]) == first)
        #expect(Set(first.values.map(\.name)).count == names.count, "ten personae, more voices: all distinct")
        // A stable hash, not Swift's per-process one: 64-bit FNV-1a, as Python computes it
        // (`h ^= b; h = h * 0x100000001b3 mod 2**64` from 0xcbf29ce484222325).
        #expect(CastPool.stableHash("ROPER") == 0x72c2_31b3_98ee_40ed)
        // A minor persona added moves no one with more speeches.
        let more = pool.assign(personae + [(Persona(label: "GLADYS")!, 1)], avoiding: ["en-gb"])
        #expect(names.allSatisfy { more[$0] == first[$0] })
        // More personae than voices: each voice is used once before any is used twice.
        let crowd = (1...(pool.voices.count * 2 + 3)).map { (persona: Persona(label: "PERSON \($0)")!, speeches: 1) }
        let counts = Dictionary(grouping: pool.assign(crowd, avoiding: []).values, by: { $0.name! }).mapValues(\.count)
        #expect(counts.count == pool.voices.count && counts.values.allSatisfy { $0 == 2 || $0 == 3 } && counts.values.filter { $0 == 3 }.count == 3)
        // Voices the narrator and the cast use are left out while others remain.
        let avoided = pool.assign(personae, avoiding: ["en-gb+m3", "en-gb+f2"])
        #expect(!avoided.values.contains { $0.name == "en-gb+m3" || $0.name == "en-gb+f2" })
    }

    @Test func aNarratorsOwnVariantIsNotInThePoolAndAPiperNarratorGetsItsLanguage() {
        let pool = CastPool.defaultPool(narrator: VoiceSettings(name: "en-us+f2"))
        #expect(pool.count == CastPool.espeakVariants.count - 1 && pool.contains { $0.name == "en-us+m6" } && !pool.contains { $0.name == "en-us+f2" })
        let piper = CastPool.defaultPool(narrator: VoiceSettings(name: "en_US-joe-medium", engine: "piper"))
        #expect(piper.first?.name == "en-us+m3" && piper.first?.resolved().isPiper == false)
        let speakers = [VoiceSettings(name: "a", engine: "piper"), VoiceSettings(name: "b", engine: "piper")]
        #expect(CastPool.defaultPool(narrator: VoiceSettings(engine: "piper"), piperSpeakers: speakers) == speakers)
    }

    @Test func theCastKeysAreRead() throws {
        let m = try load("""
            cast:
              HAMLET: en-gb+m3
              Lady Macbeth.: { pitch: 1.2 }
            cast_pool: [en-gb+f2, { name: en-gb+m7, rate: 0.6 }]
            speaker_labels: read
            """)
        #expect(m.cast.isOn && m.cast.speakerLabels == .read)
        #expect(m.cast.entry(for: Persona(label: "HAMLET.")!)?.voice == VoiceSettings(name: "en-gb+m3"))
        #expect(m.cast.entry(for: Persona(label: "LADY MACBETH.")!)?.voice.pitch == 1.2)
        #expect(m.cast.entry(for: Persona(label: "LADY MACBETH.")!)?.line == 5)
        #expect(m.cast.pool == [VoiceSettings(name: "en-gb+f2"), VoiceSettings(name: "en-gb+m7", rate: 0.6)])
        let none = try load("")
        #expect(!none.cast.isOn && none.cast.speakerLabels == .read, "no cast: labels are read")
        #expect(try load("cast: {}\n").cast.speakerLabels == .silent, "a cast silences labels")
        #expect(try load("speaker_labels: silent\n").cast.speakerLabels == .silent)
        #expect(try load("cast_pool: [en+f2]\n").cast.isOn)
    }

    @Test func badCastsNameFileLineAndKey() throws {
        let twice = try error("cast:\n  HAMLET: en-gb+m3\n  Hamlet.: en-gb+m4\n")
        #expect(twice.line == 5 && twice.key == "cast.Hamlet." && twice.message.contains("cast.HAMLET (line 4)"), "\(twice)")
        #expect(twice.file.hasSuffix("book.yml"))
        let rate = try error("cast:\n  HAMLET: { rate: 3 }\n")
        #expect(rate.line == 4 && rate.key == "cast.HAMLET.rate", "\(rate)")
        let unknown = try error("cast:\n  HAMLET: { nmae: en }\n")
        #expect(unknown.key == "cast.HAMLET.nmae" && unknown.message.contains("did you mean name?"), "\(unknown)")
        let empty = try error("cast:\n  '...': en\n")
        #expect(empty.line == 4 && empty.key == "cast...." && empty.message.contains("persona"), "\(empty)")
        let pool = try error("cast_pool: []\n")
        #expect(pool.line == 3 && pool.key == "cast_pool" && pool.message.contains("at least one"), "\(pool)")
        let labels = try error("speaker_labels: quiet\n")
        #expect(labels.line == 3 && labels.key == "speaker_labels" && labels.message.contains("\"quiet\""), "\(labels)")
    }
}
