import LecternCore

/// Who speaks each block of a play and with which voice (`cast:`, `cast_pool:`).
///
/// A speaker label (a `.speaker` block) starts its persona's speech; the blocks after it belong
/// to that persona until the next label, a heading, a section break (a scene change) or the
/// chapter's end (an act). The label itself, stage directions (blocks of their own, inline ones
/// included: the reading pass cuts them out of the speech) and headings are the narrator's.
struct CastVoices {
    /// Each persona's name to show, by key: the cast entry's as written when it is not all
    /// capitals (`Lady Macbeth`), else the first label's in title case.
    private(set) var names: [String: String] = [:]
    /// The pool voice of each persona the cast does not name, by key.
    private(set) var pooled: [String: VoiceSettings] = [:]
    /// How many speeches each persona has in the book, by key.
    private(set) var speeches: [String: Int] = [:]
    let cast: Cast

    /// The personae of every chapter of `book`, their pool voices chosen against `narrator`
    /// (the manifest's voice) and the voices the cast names.
    init(book: Book, cast: Cast, narrator: VoiceSettings, piperSpeakers: [VoiceSettings]? = nil) {
        self.cast = cast
        for chapter in book.chapters {
            for block in chapter.blocks where block.kind == .speaker {
                guard let persona = Persona(label: block.text) else { continue }
                speeches[persona.key, default: 0] += 1
                if names[persona.key] == nil { names[persona.key] = persona.name }
            }
        }
        for (key, entry) in cast.entries where entry.written.contains(where: \.isLowercase) && names[key] != nil {
            names[key] = Persona.displayName(entry.written)
        }
        guard cast.isOn else { return }
        let unnamed = speeches.filter { cast.entries[$0.key] == nil }
            .map { (persona: Persona(key: $0.key, name: names[$0.key] ?? $0.key), speeches: $0.value) }
        var taken: Set<String> = [narrator.resolved().name]
        for entry in cast.entries.values { taken.insert(entry.voice.merged(over: narrator).resolved().name) }
        let pool = CastPool(voices: cast.pool ?? CastPool.defaultPool(narrator: narrator, piperSpeakers: piperSpeakers))
        pooled = pool.assign(unnamed, avoiding: taken)
    }

    /// The persona speaking each block of a chapter (nil: the narrator).
    func personae(of blocks: [Block]) -> [Persona?] {
        var current: Persona?
        return blocks.map { block in
            if block.afterSectionBreak { current = nil }  // a scene change
            switch block.kind {
            case .speaker:
                current = Persona(label: block.text).map { Persona(key: $0.key, name: names[$0.key] ?? $0.name) }
                return nil
            case .heading:
                current = nil
                return nil
            case .stageDirection:
                return nil
            case .paragraph, .quote, .listItem:
                // A note read in a speech is the narrator's, not the speaker's.
                return block.noteLabel == nil ? current : nil
            }
        }
    }

    /// The voice layer a persona's speeches get over the narrator's (nothing without a cast).
    func voice(for persona: Persona) -> VoiceSettings? {
        guard cast.isOn else { return nil }
        return cast.entries[persona.key]?.voice ?? pooled[persona.key]
    }

    /// A warning for each cast entry naming a persona the book's speaker labels never name (a typo?).
    var warnings: [String] {
        cast.entries.filter { speeches[$0.key] == nil }.sorted { $0.key < $1.key }.map { key, entry in
            let known = speeches.keys.sorted().map { names[$0] ?? $0 }
            let list = known.isEmpty ? "the book has no speaker labels" : "the personae are: " + known.prefix(40).joined(separator: ", ")
            return "cast.\(entry.written)\(entry.line.map { " (line \($0))" } ?? ""): no speaker label names this persona (\(list))"
        }
    }
}
