import Foundation
import LecternCore
import LecternText

/// Turns a book and its manifest into a ``NarrationPlan``.
///
/// A block's voice is resolved in layers: the manifest's voice (over `Config/` defaults), then
/// the style for its kind, then its chapter's override, then — a speech in a play — its persona's
/// (``CastVoices``: `cast:` or a pool voice), then the voice for its language. Each block kind has its own pre- and
/// post-utterance delays; each chapter adds its own at start and end.
///
/// Pronunciation hints are gathered per utterance: the document's own (`ssml:ph`, its PLS
/// lexicons) first, then the manifest's lexicons, each for text in its language, then the
/// spoken forms (``SpokenForms``: Roman numerals, abbreviations, URLs, symbol runs) of the
/// utterance's language: the block's, else the book's, else the voice's language code.
///
/// With `language_switching: detect`, a block with no declared language — or only the
/// document's own (its root's `lang`, `dc:language`, flowing down: a default, not a certainty) —
/// whose text ``LanguageIdentifier`` confidently finds in another language than the book's is
/// read as if marked with it, alone or judged together with the short blocks around it (a
/// stanza's lines); a block declared in another language keeps it (in the whole block). So are a
/// quotation of ``LanguageIdentifier/quotationWords`` words or more inside a paragraph and a run
/// of its sentences or lines of ``LanguageIdentifier/passageWords`` (a ``VoiceSegment`` marked
/// `detected`). ``PassageLanguages`` decides.
///
/// With `dialogue:`, quoted speech in prose (``DialogueQuotes``) is a ``VoiceSegment`` marked
/// `dialogue`, read with those settings over the block's voice (`Segmenter+Dialogue`).
public struct Segmenter: Sendable {
    public let manifest: Manifest
    /// The manifest's lexicons, loaded (first first).
    public let lexicons: [Lexicon]
    /// The spoken-form rules; nil: read by ``plan(_:)`` from the manifest's `Config/spoken`
    /// (built-in English rules without one), with the manifest's `urls:`.
    public let spokenForms: SpokenForms?
    /// Identifies paragraphs' languages for `language_switching: detect`.
    public var identifier = LanguageIdentifier()
    /// The installed voice for a language tag or voice name, or nil (nil: espeak-ng's, see
    /// ``EspeakEngine/installedVoice(forLanguage:)``).
    public var installedVoice: (@Sendable (String) -> String?)?

    public init(manifest: Manifest, lexicons: [Lexicon] = [], spokenForms: SpokenForms? = nil) {
        self.manifest = manifest
        self.lexicons = lexicons.map { $0.sharing(manifest.regexBudget) }
        self.spokenForms = spokenForms
    }

    /// - throws: ``ManifestError`` when an override names a chapter the book does not have, for
    ///   a malformed `Config/spoken` rules file, or for a lexicon pattern that ran past its time limit.
    public func plan(_ book: Book) throws -> NarrationPlan {
        let spokenForms = try self.spokenForms ?? SpokenForms.load(configDirectory: manifest.configDirectory, urls: manifest.urls)
        for override in manifest.overrides {
            let matched = book.chapters.enumerated().contains { override.matches(number: $0.offset + 1, title: $0.element.title) }
            if !matched {
                let which: String
                switch override.chapter {
                case .number(let n): which = "no chapter \(n) (the book has \(book.chapters.count))"
                case .title(let t): which = "no chapter is titled \"\(t)\""
                }
                throw ManifestError(file: manifest.file.path, line: override.line, key: "overrides", message: which)
            }
        }
        // With credits the book gains a first and a last chapter; overrides and the reader's
        // skipped text still count the book's own chapters.
        let own = book.chapters.count
        let book = manifest.credits
            ? Credits.adding(to: book, title: manifest.title, author: manifest.author, narrator: manifest.details.narrator) : book
        let offset = manifest.credits ? 1 : 0
        func ownNumber(_ index: Int) -> Int? {
            index - offset >= 0 && index - offset < own ? index - offset + 1 : nil
        }
        var chapters: [PlannedChapter] = []
        var skipped: [SkippedText] = []
        let languageVoices = LanguageVoices(manifest: manifest, installed: installedVoice)
        var manifestVoice = manifest.voice
        // A voice the book's language chose (`dc:language`), as the installed voice for that
        // language, or the manifest's own when none speaks it.
        if let fallback = manifest.voiceBeforeBookLanguage, let name = manifest.voice.name,
           let tag = LanguageTag.meaningful(book.metadata.language), manifest.languageVoice(for: tag) == nil {
            if let installed = languageVoices.installedVoice(name) {
                manifestVoice.name = installed
            } else {
                manifestVoice.name = fallback
                languageVoices.warn(tag, "no installed voice speaks the book's language \"\(book.metadata.language ?? tag)\"; read with \(fallback)")
            }
        }
        let bookLanguage = LanguageTag.meaningful(book.metadata.language) ?? Self.languageCode(manifestVoice.name)
        let speechQuotes = dialogueQuotes(in: book, language: bookLanguage)
        let castVoices = CastVoices(book: book, cast: manifest.cast, narrator: manifestVoice,
                                    piperSpeakers: Self.otherPiperSpeakers(of: manifestVoice))
        // Skipped text refers to chapters by their number in the output, which leaves out chapters
        // skipped by an override; text of those has no chapter.
        var plannedNumber: [Int: Int] = [:]
        for (index, chapter) in book.chapters.enumerated() {
            let number = index + 1
            let overrides = ownNumber(index).map { n in manifest.overrides.filter { $0.matches(number: n, title: chapter.title) } } ?? []
            // A chapter with nothing to say (no spoken title, no words) is not a chapter of the output.
            let speaks = chapter.speaksTitle || chapter.blocks.contains { WordTokenizer.count(in: $0.text) > 0 }
            if speaks, !overrides.contains(where: \.skip) { plannedNumber[number] = plannedNumber.count + 1 }
        }
        // What lies outside an excerpt's cut is one entry a side, not the rest of the book.
        skipped = SkippedText.summarisingCuts(book.skipped.map { item in
            var item = item
            item.chapter = item.chapter.flatMap { plannedNumber[$0 + offset] }
            return item
        })
        for (index, chapter) in book.chapters.enumerated() {
            let number = index + 1
            let overrides = ownNumber(index).map { n in manifest.overrides.filter { $0.matches(number: n, title: chapter.title) } } ?? []
            let title = overrides.compactMap(\.title).last ?? chapter.title
            guard let planned = plannedNumber[number] else {
                let skippedByOverride = overrides.contains(where: \.skip)
                let reason: SkipReason = skippedByOverride ? .chapterOverride(number: number, title: chapter.title) : .punctuationOnly
                if chapter.speaksTitle { skipped.append(SkippedText(source: chapter.source, chapter: nil, reason: reason, text: chapter.title)) }
                skipped += chapter.blocks.map { SkippedText(source: chapter.source, chapter: nil, reason: reason, text: $0.text) }
                continue
            }
            let chapterVoice = overrides.compactMap(\.voice).reduce(VoiceSettings()) { $1.merged(over: $0) }
            func utterance(_ kind: BlockKind, _ text: String, language: String? = nil, spans: [LanguageSpan] = [], speech: [Range<Int>] = [],
                           pronunciations: [Pronunciation] = [], afterSectionBreak: Bool = false, persona: Persona? = nil) throws -> Utterance {
                let place = "\(chapter.source), chapter \(number): \"\(text.prefix(40))\""
                var voice = manifestVoice
                if let style = manifest.styles[kind] { voice = style.merged(over: voice) }
                voice = chapterVoice.merged(over: voice)
                // A persona's voice over the narrator's: a cast entry giving only `pitch` keeps the narrator's name.
                if let persona, let cast = castVoices.voice(for: persona) { voice = cast.merged(over: voice) }
                var languageSwitched = false
                if let language, let switched = try self.voice(for: language, over: voice, wholeBlock: true, choosing: languageVoices,
                                                               place: place) {
                    voice = switched
                    languageSwitched = true
                }
                var pause = manifest.pauses.pause(for: kind)
                if afterSectionBreak { pause.before = max(pause.before, manifest.pauses.section.before) }
                var u = Utterance(kind: kind, text: text, voice: voice.resolved(), preDelay: pause.before, postDelay: pause.after)
                u.persona = persona
                if u.voice.isPiper, u.voice.pitch != 1 {
                    languageVoices.warn("pitch \(u.voice.name)", "the Piper voice \(u.voice.name) has no pitch setting: pitch \(u.voice.pitch) "
                                        + "(from Config/ defaults or a preset) is ignored")
                }
                u.pronunciations = Lexicon.pronunciations(lexicons, in: text, language: language ?? bookLanguage, spans: spans,
                                                          adding: pronunciations)
                let spokenLanguage = language ?? book.metadata.language ?? Self.languageCode(voice.name)
                u.pronunciations = Pronunciation.merging(u.pronunciations,
                                                         Self.spokenForms(spokenForms, in: text, kind: kind, language: spokenLanguage, spans: spans))
                u.segments = try Self.voiceSegments(spans: spans, speech: speech, voice: voice,
                                                    speechVoice: dialogueVoice(over: voice, switched: languageSwitched)) { language, base in
                    try self.voice(for: language, over: base, wholeBlock: false, choosing: languageVoices, place: place)
                }
                return u
            }
            var utterances: [Utterance] = []
            if chapter.speaksTitle { utterances.append(try utterance(.heading, title)) }
            // `und`, `mul`, `zxx`, `x-…` and empty tags mark no language: the text around it. A
            // block in the document's own language (its root's `lang`, `dc:language`, flowing
            // down) has that as a default, not a certainty: it is judged like one with none.
            let documentLanguage = LanguageTag.meaningful(book.metadata.language).map(Self.primary)
            let declaredLanguages: [String?] = chapter.blocks.map { block in
                guard let tag = LanguageTag.meaningful(block.language).map({ _ in block.language! }) else { return nil }
                return Self.primary(tag) == documentLanguage ? nil : tag
            }
            let detectedLanguages = detectedLanguages(of: chapter.blocks.indices.map { declaredLanguages[$0] == nil ? chapter.blocks[$0].text : nil },
                                                      bookLanguage: bookLanguage, voices: languageVoices)
            // Quoted speech, read through the chapter's prose (a speech may run over paragraphs).
            let speech = speechQuotes?.speech(in: chapter.blocks.map { Self.mayQuoteSpeech($0.kind) ? $0.text : nil })
            let personae = castVoices.personae(of: chapter.blocks)
            var silentLabel: String?
            for (blockIndex, block) in chapter.blocks.enumerated() {
                if block.kind == .speaker, manifest.cast.speakerLabels == .silent {
                    // Not spoken, not lost: listed in its place (`check --text`, the sidecar's
                    // `skipped`) and carried by the utterance after it; the speech names its persona.
                    var item = SkippedText(source: chapter.source, chapter: planned, reason: .silentSpeakerLabel, text: block.text)
                    item.beforeBlock = blockIndex
                    skipped.append(item)
                    silentLabel = silentLabel.map { $0 + " " + block.text } ?? block.text
                } else if WordTokenizer.count(in: block.text) == 0 {
                    var item = SkippedText(source: chapter.source, chapter: planned, reason: .punctuationOnly, text: block.text)
                    item.beforeBlock = blockIndex
                    skipped.append(item)
                } else {
                    let declared = declaredLanguages[blockIndex]
                    let detected = detectedLanguages[blockIndex]
                    // The document's own language, when the block restates it.
                    let own = declared ?? LanguageTag.meaningful(block.language).map { _ in block.language! }
                    let quoted = declared == nil
                        ? detectedPassages(in: block.text, language: detected ?? own ?? bookLanguage, declared: block.spans, voices: languageVoices)
                        : []
                    let marked = block.spans.filter { LanguageTag.meaningful($0.language) != nil }
                    let spans = (marked + quoted).sorted { $0.offset < $1.offset }
                    // A heading inside the chapter opens a section: the section pause before it.
                    let opensSection = chapter.opensSection(at: blockIndex)
                    var u = try utterance(block.kind, block.text, language: detected ?? own, spans: spans, speech: speech?[blockIndex] ?? [],
                                          pronunciations: block.pronunciations,
                                          afterSectionBreak: block.afterSectionBreak || opensSection,
                                          persona: personae[blockIndex])
                    u.opensSection = opensSection
                    if let label = block.noteLabel {
                        u.pronunciations = Self.announcing(note: label, in: u, forms: spokenForms,
                                                           language: detected ?? own ?? bookLanguage ?? Self.languageCode(u.voice.name))
                    }
                    u.blockIndex = blockIndex
                    u.speakerLabel = silentLabel
                    silentLabel = nil
                    u.language = (detected ?? own).flatMap { Self.primary($0) == bookLanguage.map(Self.primary) ? nil : $0 }
                    u.languageDetected = detected != nil
                    for i in u.segments.indices where u.segments[i].language != nil && quoted.contains(where: {
                        $0.offset <= u.segments[i].offset && u.segments[i].offset < $0.offset + $0.length
                    }) {
                        u.segments[i].detected = true
                    }
                    utterances.append(u)
                }
            }
            chapters.append(PlannedChapter(number: planned, title: title, pause: manifest.pauses.chapter, utterances: utterances,
                                           part: chapter.part))
        }
        if let failure = lexicons.lazy.compactMap(\.regexFailure).first { throw failure }
        var plan = NarrationPlan(chapters: chapters, skipped: skipped)
        plan.warnings = languageVoices.warnings + castVoices.warnings.map { "\(manifest.file.path), \($0)" }
        plan.pronunciationNotes = book.pronunciationNotes + lexicons.flatMap(\.notes)
        return plan
    }

    /// With `language_switching: detect`, the language each block is read in when ``identifier``
    /// surely finds it (alone, or with the short blocks around it) in another language than the
    /// book's, else nil; `texts[i]` nil is a block whose language is declared (``PassageLanguages``).
    func detectedLanguages(of texts: [String?], bookLanguage: String?, voices: LanguageVoices) -> [String?] {
        guard manifest.languageSwitching == .detect else { return texts.map { _ in nil } }
        return passages(bookLanguage: bookLanguage, voices: voices).blockLanguages(texts)
    }

    /// With `language_switching: detect`, the parts of `text` (a block read in `language`) that
    /// ``identifier`` surely finds in another language: quotations of
    /// ``LanguageIdentifier/quotationWords`` words or more and runs of sentences or lines, as spans
    /// (a quotation's including its quote marks); none overlaps a declared span.
    func detectedPassages(in text: String, language: String?, declared: [LanguageSpan], voices: LanguageVoices) -> [LanguageSpan] {
        guard manifest.languageSwitching == .detect else { return [] }
        return passages(bookLanguage: language.map(Self.primary), voices: voices).spans(in: text, language: language, declared: declared)
    }

    private func passages(bookLanguage: String?, voices: LanguageVoices) -> PassageLanguages {
        PassageLanguages(identifier: identifier, bookLanguage: bookLanguage.map(Self.primary)) { voices.speaks($0) }
    }

    /// The utterance's pronunciations with the note's announcement ("Note 3.") said before its
    /// first word (``SpokenFrame``): nothing that is not written is timed.
    static func announcing(note label: String, in u: Utterance, forms: SpokenForms, language: String?) -> [Pronunciation] {
        guard let words = forms.noteAnnouncement(label, language: language) else { return u.pronunciations }
        return SpokenFrame.pronunciations([SpokenFrame(range: 0..<u.text.utf16.count, before: words)], in: u.text, over: u.pronunciations)
    }

    /// The spoken forms of `text` in `language`; the parts marked as another language (`spans`)
    /// get that language's.
    static func spokenForms(_ forms: SpokenForms, in text: String, kind: BlockKind, language: String?,
                            spans: [LanguageSpan]) -> [Pronunciation] {
        let primary = { (tag: String?) in tag.map { String($0.lowercased().prefix { $0 != "-" && $0 != "_" }) } }
        let foreign = spans.filter { primary($0.language) != primary(language) }
        var result = forms.pronunciations(in: text, kind: kind, language: language).filter { p in
            !foreign.contains { $0.offset < p.end && p.offset < $0.offset + $0.length }
        }
        // Each other language's rules read the whole text (for the words around), and apply inside its spans.
        for language in Set(foreign.map { $0.language.lowercased() }).sorted() {
            let mine = foreign.filter { $0.language.lowercased() == language }
            result += forms.pronunciations(in: text, kind: kind, language: language).filter { p in
                mine.contains { $0.offset <= p.offset && p.end <= $0.offset + $0.length }
            }
        }
        return result.sorted { $0.offset < $1.offset }
    }

    /// A language tag's primary subtag, lowercased (`en-GB` → `en`).
    static func primary(_ tag: String) -> String { String(tag.lowercased().prefix { $0 != "-" && $0 != "_" }) }

    /// A voice name that is a language code (`en`, `en-gb`, `fra`, with or without an espeak-ng
    /// variant: `en+f3`), without its variant, or nil.
    public static func languageCode(_ name: String?) -> String? {
        guard let name = name.map({ String($0.prefix { $0 != "+" }) }) else { return nil }
        // A Piper voice's name starts with its locale: `en_US-joe-medium` speaks en-us.
        if let underscore = name.firstIndex(of: "_"), !name[..<underscore].contains("-") {
            let locale = name.prefix { $0 != "-" }.replacingOccurrences(of: "_", with: "-").lowercased()
            return languageCode(locale)
        }
        let primary = name.prefix { $0 != "-" && $0 != "_" }
        return (2...3).contains(primary.count) && primary.allSatisfy(\.isLetter) ? name : nil
    }

    /// The voice for text in `language`, or nil when `voice` already speaks it (or switching is
    /// off, or the tag marks no language): the manifest's `languages` entry for the tag or a
    /// shorter form of it, else the installed voice for the tag or a shorter form, with the rate,
    /// pitch and volume of `voice`; nil with a warning when no voice speaks it (``LanguageVoices``).
    ///
    /// A whole block switches only when the current voice is named by a language code (`en-gb`)
    /// whose language differs; a voice named otherwise is taken to speak the book's language.
    func voice(for language: String, over voice: VoiceSettings, wholeBlock: Bool, choosing voices: LanguageVoices,
               place: @autoclosure () -> String) throws -> VoiceSettings? {
        guard manifest.switchesLanguages, let tag = LanguageTag.meaningful(language) else { return nil }
        let primary = LanguageTag.primary(tag)
        let current = (voice.name ?? "").lowercased().prefix { $0 != "+" }
        let currentPrimary = String(current.prefix { $0 != "-" && $0 != "_" })
        let currentIsLanguage = (2...3).contains(currentPrimary.count) && currentPrimary.allSatisfy(\.isLetter)
        if currentIsLanguage, currentPrimary == primary { return nil }
        if !currentIsLanguage, wholeBlock { return nil }
        return try voices.voice(for: tag, place: place())?.merged(over: voice)
    }

    /// A multi-speaker Piper narrator's other speakers, each as the layer that selects it (the
    /// cast pool's default), or nil for any other narrator (or a model whose `.onnx.json` cannot be read).
    static func otherPiperSpeakers(of narrator: VoiceSettings) -> [VoiceSettings]? {
        let voice = narrator.resolved()
        guard voice.isPiper,
              let config = try? PiperVoiceConfig(contentsOf: URL(fileURLWithPath: SpeechEngines.model(of: voice).path + ".json")),
              config.speakerCount > 1 else { return nil }
        let own = voice.speaker.flatMap { try? config.speakerId($0) } ?? 0
        return config.speakerNames.filter { (try? config.speakerId($0)) != own }.map { VoiceSettings(speaker: $0) }
    }
}
