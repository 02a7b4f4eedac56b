import Foundation
import LecternCore
internal import CEspeakNG

/// libespeak-ng in this process, in synchronous mode, with word events.
///
/// libespeak-ng keeps all its state in process globals and crashes when two threads call it.
/// This type is the one owner of that state: there is a single instance (``shared()``), and every
/// call into the library passes through this file while holding ``lock``. Parallel synthesis
/// uses several processes, never several threads; a sequence of calls whose result depends on
/// the state left between them (a chunk: ``reset()``, then its items) runs inside
/// ``exclusively(_:)``, which no other thread's call can interleave with.
public final class EspeakEngine: @unchecked Sendable {
    // @unchecked Sendable is safe: all mutable state (the library's globals and `collector`)
    // is touched only while `lock` is held.
    /// Recursive, so that a thread inside ``exclusively(_:)`` calls the engine as usual.
    private let lock = NSRecursiveLock()
    /// Samples per second of the engine's output (22050 for espeak-ng's voices).
    public let sampleRate: Int
    /// The library's version and data path, e.g. "1.51".
    public let version: String
    /// The library's version, data folder and the size and date of its phoneme data: what a
    /// cached rendering depends on besides its input.
    public let identity: String
    private var currentVoice: String?
    /// espeak-ng's variant names (``installedVariants()``), once read.
    private var variants: Set<String>?
    /// The loaded library; replaced by ``reset()``.
    private var library: EspeakLibrary
    /// Whether anything was synthesized since the library was loaded.
    private var used = false

    nonisolated(unsafe) private static var instance: Result<EspeakEngine, SpeechError>?
    private static let instanceLock = NSLock()

    /// The process's engine, initialised on first use.
    ///
    /// - throws: ``SpeechError`` if espeak-ng's data cannot be loaded (the library is initialised
    ///   with `espeakINITIALIZE_DONT_EXIT`, so missing data is an error instead of `exit(1)`).
    public static func shared() throws -> EspeakEngine {
        instanceLock.lock()
        defer { instanceLock.unlock() }
        if instance == nil {
            instance = Result { try EspeakEngine() }.mapError { $0 as? SpeechError ?? SpeechError("\($0)") }
        }
        return try instance!.get()
    }

    /// Loads the library and calls `espeak_Initialize`.
    private init() throws {
        library = try EspeakLibrary()
        sampleRate = try Self.initialize(library)
        var path: UnsafePointer<CChar>?
        let v = library.info(&path)
        version = v.map { String(cString: $0) } ?? "unknown"
        let data = path.map { String(cString: $0) } ?? ""
        var info = stat()
        let phondata = stat(data + "/phondata", &info) == 0 ? "\(info.st_size) \(info.st_mtim.tv_sec)" : "?"
        identity = "espeak-ng \(version) data \(data) phondata \(phondata)"
    }

    /// `espeak_Initialize` (synchronous, with `espeakINITIALIZE_DONT_EXIT`, so missing data is an
    /// error instead of `exit(1)`, and IPA phoneme events) and the synthesis callback; returns the
    /// sample rate.
    private static func initialize(_ library: EspeakLibrary) throws -> Int {
        // Phoneme events (IPA) too: the Piper engine ties the phonemes of its input to text words by them.
        let options = Int32(espeakINITIALIZE_DONT_EXIT) | Int32(espeakINITIALIZE_PHONEME_EVENTS) | Int32(espeakINITIALIZE_PHONEME_IPA)
        let rate = library.initialize(AUDIO_OUTPUT_SYNCHRONOUS, 500, nil, options)
        guard rate > 0 else {
            library.unload(initialized: false)
            throw SpeechError("espeak-ng could not be initialised (is espeak-ng-data installed? install the espeak-ng-data package)")
        }
        library.setSynthCallback(synthCallback)
        return Int(rate)
    }

    /// Runs `body` holding the engine: another thread's call waits until it returns, so that
    /// what `body` synthesizes depends only on its own calls (``ChunkRenderer`` renders a chunk
    /// so, which lets several renders share this process's one engine, one after the other).
    public func exclusively<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Returns libespeak-ng to the state it had when first loaded, by unloading and loading it
    /// again (see ``EspeakLibrary``), so that what is synthesized next does not depend on what was
    /// synthesized before. A few milliseconds; nothing happens when nothing was synthesized since.
    ///
    /// - throws: ``SpeechError`` if the library cannot be loaded or initialised again.
    public func reset() throws {
        lock.lock()
        defer { lock.unlock() }
        guard used else { return }
        library.unload(initialized: true)
        library = try EspeakLibrary()
        _ = try Self.initialize(library)
        currentVoice = nil
        used = false
    }

    /// Speaks `text` with `voice` and returns its audio and word marks (UTF-16 offsets in `text`).
    /// The stretches that `pronunciations` cover are read as they say (espeak-ng phonemes through
    /// its `[[ ]]` phoneme input, or a respelling); their marks still point at `text`.
    ///
    /// Calls `espeak_SetVoiceByName`, `espeak_SetParameter` and `espeak_Synth`.
    /// - throws: ``SpeechError`` for an unknown voice or a failed synthesis.
    public func synthesize(_ text: String, voice: ResolvedVoice, pronunciations: [Pronunciation] = []) throws -> Synthesis {
        try synthesizeWithPhonemes(text, voice: voice, pronunciations: pronunciations).synthesis
    }

    /// ``synthesize(_:voice:pronunciations:)`` with the phonemes spoken (espeak-ng's phoneme events,
    /// IPA, pauses left out), each with the sample where it starts in the audio: a phoneme belongs
    /// to the last word that starts at or before it.
    func synthesizeWithPhonemes(_ text: String, voice: ResolvedVoice, pronunciations: [Pronunciation] = []) throws
        -> (synthesis: Synthesis, phonemes: [SpokenPhoneme]) {
        guard !pronunciations.isEmpty else { return try synthesize(spoken: text, voice: voice, phonemeInput: false) }
        let spoken = SpokenText(text, pronunciations: pronunciations)
        var (synthesis, phonemes) = try synthesize(spoken: spoken.text, voice: voice, phonemeInput: spoken.usesPhonemes)
        synthesis.words = spoken.originalMarks(synthesis.words)
        return (synthesis, phonemes)
    }

    /// One phoneme of a synthesis: its IPA and the sample where it starts.
    struct SpokenPhoneme: Equatable {
        var ipa: String
        var sample: Int
    }

    /// The fastest rate whose word events are exact. From 450 words per minute on, espeak-ng
    /// speeds its speech up with libsonic, and then reports about a quarter of the words at the
    /// position of the word before (measured: 1126 of 4265 words of Alice at 450, none at 449).
    static let fastestExactRate = 449

    private func synthesize(spoken text: String, voice: ResolvedVoice, phonemeInput: Bool) throws -> (Synthesis, [SpokenPhoneme]) {
        lock.lock()
        defer { lock.unlock() }
        try select(voice.name)
        used = true
        try check(library.setParameter(espeakRATE, Int32(min(voice.wordsPerMinute, Self.fastestExactRate)), 0), "set the rate")
        try check(library.setParameter(espeakPITCH, Int32(voice.espeakPitch), 0), "set the pitch")
        try check(library.setParameter(espeakVOLUME, Int32(voice.espeakVolume), 0), "set the volume")

        let collector = Collector()
        activeCollector = collector
        defer { activeCollector = nil }
        let utf8 = Array(text.utf8CString)
        let status = utf8.withUnsafeBufferPointer { buffer in
            library.synth(buffer.baseAddress, buffer.count, 0, POS_CHARACTER, 0,
                         UInt32(espeakCHARS_UTF8) | (phonemeInput ? UInt32(espeakPHONEMES) : 0), nil, nil)
        }
        try check(status, "synthesize")
        try check(library.synchronize(), "finish synthesis")

        // Events give 1-based positions in Unicode scalars; sidecars use UTF-16 offsets.
        var utf16Offsets: [Int] = [0]
        utf16Offsets.reserveCapacity(text.unicodeScalars.count + 1)
        for scalar in text.unicodeScalars { utf16Offsets.append(utf16Offsets.last! + scalar.utf16.count) }
        var words: [WordMark] = []
        for event in collector.events {
            let start = event.position - 1
            guard start >= 0, start < utf16Offsets.count - 1 else { continue }  // position 0: no text
            if let last = words.last, last.textOffset == utf16Offsets[start] { continue }  // repeated event
            let end = min(start + max(event.length, 1), utf16Offsets.count - 1)
            words.append(WordMark(textOffset: utf16Offsets[start], textLength: utf16Offsets[end] - utf16Offsets[start],
                                  sample: min(event.sample, collector.samples.count)))
        }
        let phonemes = collector.phonemes.filter { $0.ipa != "_" && !$0.ipa.isEmpty }
            .map { SpokenPhoneme(ipa: $0.ipa, sample: min($0.sample, collector.samples.count)) }
        return (Synthesis(samples: collector.samples, words: words), phonemes)
    }

    /// The IPA of `text` as `voice` speaks it, clause by clause (`espeak_TextToPhonemes`); the
    /// stretches that `pronunciations` cover are phonemized as they say. Clause ranges point at `text`
    /// only when there are no pronunciations (they point at the spoken text otherwise).
    public func phonemeClauses(_ text: String, voice: ResolvedVoice, pronunciations: [Pronunciation] = []) throws -> [PhonemeClause] {
        let spoken = SpokenText(text, pronunciations: pronunciations)
        lock.lock()
        defer { lock.unlock() }
        try select(voice.name)
        used = true
        return PhonemeClause.clauses(of: spoken.text, library: library, phonemeInput: spoken.usesPhonemes)
    }

    /// The installed voices, optionally only those for a language (prefix match, e.g. "en").
    ///
    /// Calls `espeak_ListVoices`.
    public func voices(language: String? = nil) -> [VoiceInfo] {
        lock.lock()
        defer { lock.unlock() }
        return unlockedVoices(language: language)
    }

    private func unlockedVoices(language: String?) -> [VoiceInfo] {
        var result: [VoiceInfo] = []
        guard var list = library.listVoices(nil) else { return [] }
        while let voice = list.pointee {
            let v = voice.pointee
            var languages: [String] = []
            if var p = v.languages {
                // Each entry: one priority byte, a NUL-terminated language name; a 0 byte ends the list.
                while p.pointee != 0 {
                    let name = String(cString: p + 1)
                    languages.append(name)
                    p += name.utf8.count + 2
                }
            }
            let info = VoiceInfo(
                name: v.name.map { String(cString: $0) } ?? "",
                identifier: v.identifier.map { String(cString: $0) } ?? "",
                languages: languages,
                gender: v.gender == 1 ? "male" : v.gender == 2 ? "female" : "unspecified")
            if let language {
                let l = language.lowercased()
                if info.languages.contains(where: { $0.lowercased() == l || $0.lowercased().hasPrefix(l + "-") }) { result.append(info) }
            } else {
                result.append(info)
            }
            list += 1
        }
        return result
    }

    /// The names of espeak-ng's voice variants (`m3`, `f2`, `Annie`: the files of `!v/`, whose case
    /// counts), read once. Must be called with the lock held.
    private func installedVariants() -> Set<String> {
        if let variants { return variants }
        var found: Set<String> = []
        var spec = espeak_VOICE()
        "variant".withCString { code in
            spec.languages = code
            guard var list = library.listVoices(&spec) else { return }
            while let voice = list.pointee {
                if let identifier = voice.pointee.identifier.map({ String(cString: $0) }), let slash = identifier.lastIndex(of: "/") {
                    found.insert(String(identifier[identifier.index(after: slash)...]))
                }
                list += 1
            }
        }
        variants = found
        return found
    }

    /// The file (identifier) of the voice espeak-ng prefers for a language code: the one listing it
    /// with the best priority (MBROLA voices left out: they take no variant). Must be called with the lock held.
    private func preferredVoiceFile(forLanguage language: String) -> String? {
        let wanted = language.lowercased()
        guard var list = library.listVoices(nil) else { return nil }
        var best: (priority: Int, file: String)?
        while let voice = list.pointee {
            let v = voice.pointee
            list += 1
            guard let identifier = v.identifier.map({ String(cString: $0) }), !identifier.hasPrefix("mb/"), var p = v.languages else { continue }
            // Each entry: one priority byte, a NUL-terminated language name; a 0 byte ends the list.
            while p.pointee != 0 {
                let priority = Int(UInt8(bitPattern: p.pointee))
                let name = String(cString: p + 1)
                if name.lowercased() == wanted, best.map({ priority < $0.priority }) ?? true { best = (priority, identifier) }
                p += name.utf8.count + 2
            }
        }
        return best?.file
    }

    /// Checks that a voice exists, without synthesizing.
    public func validate(voice name: String) throws {
        lock.lock()
        defer { lock.unlock() }
        try select(name)
    }

    /// The installed voice for a BCP 47 language tag: the first of the tag and its shorter forms
    /// (`zh-hant-tw`, `zh-hant`, `zh`) that names a voice or a language a voice speaks (`de-DE`
    /// → `de`, `zh-CN` → `zh`), or nil when none does.
    public func installedVoice(forLanguage tag: String) -> String? {
        lock.lock()
        defer { lock.unlock() }
        return LanguageTag.lookup(tag).first { (try? selectExactly($0)) != nil }
    }

    /// Selects a voice by espeak-ng voice name or identifier (`espeak_SetVoiceByName`), or else
    /// by language code (`espeak_SetVoiceByProperties`, which picks espeak-ng's preferred voice
    /// for that language), or else by the shorter forms of a language tag (`de-de` → `de`).
    /// Must be called with the lock held.
    private func select(_ name: String) throws {
        guard name != currentVoice else { return }
        do { try selectExactly(name) } catch {
            guard LanguageTag.lookup(name).dropFirst().contains(where: { (try? selectExactly($0)) != nil }) else { throw error }
            currentVoice = name
        }
    }

    /// ``select(_:)`` without the shorter forms.
    private func selectExactly(_ name: String) throws {
        guard name != currentVoice else { return }
        currentVoice = nil
        // espeak-ng reads `en+nosuch` as plain `en`: a variant it does not have is an unknown voice.
        if let plus = name.firstIndex(of: "+"), !installedVariants().contains(String(name[name.index(after: plus)...])) {
            throw SpeechError("unknown voice \"\(UserText.excerpt(name))\": espeak-ng has no variant \"\(UserText.excerpt(String(name[name.index(after: plus)...])))\" "
                              + "(`espeak-ng --voices=variant` lists them: m1…m8, f1…f5, …)")
        }
        if library.setVoiceByName(name) == EE_OK {
            currentVoice = name
            return
        }
        // `en-gb+f5`: a language and a variant. espeak-ng applies a variant only to a voice named by
        // its file (`gmw/en+f5`) and would read the language with its plain voice: the variant goes
        // on espeak-ng's preferred voice for the language.
        if let plus = name.firstIndex(of: "+"), let file = preferredVoiceFile(forLanguage: String(name[..<plus])),
           library.setVoiceByName(file + name[plus...]) == EE_OK {
            currentVoice = name
            return
        }
        let language = name.lowercased()
        let known = unlockedVoices(language: nil).contains { $0.languages.contains { $0.lowercased() == language } }
        var status = EE_NOT_FOUND
        if known {
            status = language.withCString { code in
                var spec = espeak_VOICE()
                spec.languages = code
                return library.setVoiceByProperties(&spec)
            }
        }
        guard status == EE_OK else {
            throw SpeechError("unknown voice \"\(UserText.excerpt(name))\" (run `lectern voices` to list the installed voices and languages)")
        }
        currentVoice = name
    }

    private func check(_ status: espeak_ERROR, _ action: String) throws {
        guard status == EE_OK else {
            throw SpeechError("espeak-ng failed to \(action) (error \(status.rawValue))")
        }
    }

    /// Where the synthesis callback puts what espeak-ng delivers.
    final class Collector {
        struct Event { var position: Int; var length: Int; var sample: Int }
        var samples: [Int16] = []
        var events: [Event] = []
        var phonemes: [(ipa: String, sample: Int)] = []
    }
}

/// The collector of the synthesis in progress. Only touched while the engine's lock is held
/// (set and cleared by `synthesize`, used by the callback that `espeak_Synth` calls on the same thread).
nonisolated(unsafe) private var activeCollector: EspeakEngine.Collector?

/// espeak-ng's synthesis callback: appends audio, word and phoneme events to the active collector.
/// Called by `espeak_Synth` on the calling thread, inside the engine's lock. A buffer may come
/// with no events at all, so the collector cannot be found through an event's `user_data`.
private func synthCallback(_ wav: UnsafeMutablePointer<Int16>?, _ count: Int32, _ events: UnsafeMutablePointer<espeak_EVENT>?) -> Int32 {
    guard let collector = activeCollector else { return 1 }  // 1 aborts: nobody is listening
    if var event = events {
        while event.pointee.type != espeakEVENT_LIST_TERMINATED {
            if event.pointee.type == espeakEVENT_WORD {
                collector.events.append(.init(position: Int(event.pointee.text_position), length: Int(event.pointee.length),
                                              sample: Int(event.pointee.sample)))
            } else if event.pointee.type == espeakEVENT_PHONEME {
                // The name: up to 8 bytes of UTF-8, zero-terminated unless it fills them.
                let name = withUnsafeBytes(of: event.pointee.id.string) { Array($0.prefix { $0 != 0 }) }
                collector.phonemes.append((String(decoding: name, as: UTF8.self), Int(event.pointee.sample)))
            }
            event += 1
        }
    }
    if let wav, count > 0 {
        collector.samples.append(contentsOf: UnsafeBufferPointer(start: wav, count: Int(count)))
    }
    return 0
}
