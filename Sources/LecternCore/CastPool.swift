/// Voices for the personae a cast does not name: distinct voices from a pool, each persona's
/// chosen from its name, the same in every run.
///
/// The personae are served in order of how many speeches they have (most first; ties by name),
/// each taking the pool voice its name's stable hash (64-bit FNV-1a of the normalised name, not
/// Swift's per-process `hashValue`) points at, or the next one free after it. So two personae share a voice
/// only when there are more personae than pool voices (then the pool is served again, round after
/// round), and the main speakers are the ones sure to be distinct. Distinctness wins over
/// stability: a persona added to the play moves no one who has more speeches than it, and moves
/// another only when that one's voice was the next free one after the newcomer's.
///
/// Voices the cast gives by name and the narrator's own are left out of the pool while it has others.
public struct CastPool: Sendable {
    public let voices: [VoiceSettings]

    public init(voices: [VoiceSettings]) { self.voices = voices }

    /// espeak-ng's variants in the order the default pool offers them: male and female
    /// alternating, its numbered variants first (their pitch and formants, `espeak-ng
    /// --voices=variant`), then named ones whose pitch sets them apart (median F0 on en-gb:
    /// `m8` 83 Hz, `Annie` 228, `david` 76, `Alicia` 241, `ed` 122, `aunty` 175, `grandpa` 109,
    /// `belinda` 225, against 99 for the bare voice).
    public static let espeakVariants = ["m3", "f2", "m7", "f4", "m2", "f5", "m4", "f3", "m1", "f1", "m5",
                                        "m8", "Annie", "david", "Alicia", "ed", "aunty", "grandpa", "belinda", "m6"]

    /// The default pool for a narrator's voice: espeak-ng's variants of the narrator's language
    /// (`en-gb` → `en-gb+m3`, `en-gb+f2`, …) except the narrator's own variant (a bare voice
    /// such as `en-gb` speaks at `+m6`'s pitch: that one is left out). For a Piper narrator,
    /// the speakers of its model (`piperSpeakers`, when the engine knows them: the hook for
    /// multi-speaker models), else espeak-ng variants of the model's language.
    public static func defaultPool(narrator: VoiceSettings, piperSpeakers: [VoiceSettings]? = nil) -> [VoiceSettings] {
        let resolved = narrator.resolved()
        if resolved.isPiper, let speakers = piperSpeakers, speakers.count > 1 { return speakers }
        let name = resolved.isPiper ? (languageOfPiperVoice(resolved.name) ?? "en") : resolved.name
        let parts = name.split(separator: "+", maxSplits: 1)
        let base = parts.first.map(String.init) ?? "en"
        let own = parts.count > 1 ? String(parts[1]) : "m6"
        return espeakVariants.filter { $0 != own }.map { VoiceSettings(name: "\(base)+\($0)", engine: ResolvedVoice.espeakEngine) }
    }

    /// `en_US-joe-medium` → `en-us`.
    static func languageOfPiperVoice(_ name: String) -> String? {
        let locale = name.prefix { $0 != "-" }
        guard locale.contains("_") else { return nil }
        return locale.replacingOccurrences(of: "_", with: "-").lowercased()
    }

    /// The pool voice of each persona: `personae` with their speech counts, `taken` the voices
    /// (resolved names) the narrator and the cast already use, left out while the pool has others.
    public func assign(_ personae: [(persona: Persona, speeches: Int)], avoiding taken: Set<String>) -> [String: VoiceSettings] {
        guard !voices.isEmpty else { return [:] }
        let free = voices.filter { !taken.contains($0.resolved().name) }
        let pool = free.isEmpty ? voices : free
        let order = personae.sorted { $0.speeches != $1.speeches ? $0.speeches > $1.speeches : $0.persona.key < $1.persona.key }
        var used = [Bool](repeating: false, count: pool.count)
        var usedCount = 0
        var result: [String: VoiceSettings] = [:]
        for (persona, _) in order where result[persona.key] == nil {
            if usedCount == pool.count {
                used = used.map { _ in false }
                usedCount = 0
            }
            var slot = Int(Self.stableHash(persona.key) % UInt64(pool.count))
            while used[slot] { slot = (slot + 1) % pool.count }
            used[slot] = true
            usedCount += 1
            result[persona.key] = pool[slot]
        }
        return result
    }

    /// 64-bit FNV-1a of the text's UTF-8: the same in every process and on every machine.
    public static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
