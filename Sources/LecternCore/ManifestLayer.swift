import Foundation
import Yams
import LecternSchedule

/// One layer of settings as written in a YAML file (a manifest or `Config/defaults.yml`):
/// every field optional, paths still relative to the file.
struct ManifestLayer {
    var name: String?
    var title: String?
    var author: String?
    var output: String?
    var cover: String?
    /// `language:`, a BCP 47 tag.
    var language: String?
    /// `narrator:`, `description:`, `genre:`, `date:`/`year:`, `series:`, `series_index:`,
    /// `publisher:`, `copyright:`, `isbn:`.
    var details = BookDetails()
    var sources: [SourceLayer]?
    var voice: VoiceSettings?
    var pauses: [String: PauseLayer] = [:]
    var styles: [BlockKind: VoiceSettings] = [:]
    /// `dialogue:`, the voice settings of quoted speech.
    var dialogue: VoiceSettings?
    var overrides: [ChapterOverride] = []
    var languages: [String: VoiceSettings] = [:]
    var languageSwitching: LanguageSwitching?
    /// `cast:` by persona key, nil when not given.
    var cast: [String: Cast.Entry]?
    /// `cast_pool:`.
    var castPool: [VoiceSettings]?
    /// `speaker_labels:`.
    var speakerLabels: Cast.SpeakerLabels?
    /// Lexicon files, already resolved against the folder of the file that lists them.
    var lexicons: [(url: URL, line: Int?, file: String)] = []
    var urls: URLReading?
    var bitrate: Int?
    /// `loudness:` — `.some(nil)` for `off`.
    var loudness: LoudnessTarget??
    var quality: Int?
    var timings: [TimingFormat]?
    var vtt: WebVTTCues?
    var split: SplitOutput?
    var formats: [AudioFormat]?
    var profile: DeliveryProfile?
    var credits: Bool?
    var schedule: String?
    var timeZone: String?
    var watch: Bool?
    var priority: Int?
    var chunkAttempts: Int?
    var catchUp: CatchUp?
    var retryLimit: Int?
    var retryDelay: Double?
    var retryMaxDelay: Double?
    /// Where `sources` was, for "no sources" errors.
    var line: [String: Int] = [:]

    struct SourceLayer {
        var path: String
        var format: Source.Format?
        var chapters: ChapterRule
        var skip: [String]
        var rules = ReadingRules()
        var line: Int?
        /// The keys given (`encoding`, `chapters.heading` …) and their lines, to reject those
        /// that do not apply to the source's format.
        var given: [String: Int?] = [:]
    }

    struct PauseLayer {
        var before: Double?
        var after: Double?
    }

    /// Parses YAML text into a layer, checking keys, types and ranges: the keys declared with a
    /// ``LayerField`` by their fields (``readFields(of:from:into:)``), the others here.
    ///
    /// - parameters:
    ///     - yaml: The file's contents.
    ///     - file: The file's name as the user should see it in errors.
    ///     - presets: Named voices from `Config/voices.yml`, for `voice: { preset: NAME }`.
    ///     - isDefaults: Whether this is `Config/defaults.yml`, which may also name the host's store.
    static func parse(yaml: String, file: String, presets: [String: VoiceSettings], isDefaults: Bool = false) throws -> ManifestLayer {
        guard let root = try composeChecked(yaml, file: file) else { return ManifestLayer() }
        let top = try YAMLValue(node: root, key: "", file: file).mapping(schema: "", inDefaults: isDefaults)
        var layer = ManifestLayer()
        for (key, value) in top { if let l = value.line { layer.line[key] = l } }
        try readFields(of: "", from: top, into: &layer)
        try parseMetadata(top, into: &layer)
        if let voice = top["voice"] { layer.voice = try parseVoice(voice, presets: presets) }
        if let sources = top["sources"] {
            layer.sources = try sources.list().map(parseSource)
        }
        if let pauses = top["pauses"] {
            for (kind, value) in try pauses.mapping(schema: "pauses") {
                let m = try value.mapping(schema: "pauses.*")
                layer.pauses[kind] = PauseLayer(before: try m.number(.pauseBefore), after: try m.number(.pauseAfter))
            }
        }
        if let styles = top["styles"] {
            for (kind, value) in try styles.mapping(schema: "styles") {
                layer.styles[BlockKind(rawValue: kind)!] = try parseVoice(value, presets: presets)
            }
        }
        if let dialogue = top["dialogue"] { layer.dialogue = try parseVoice(dialogue, presets: presets) }
        if let overrides = top["overrides"] {
            layer.overrides = try overrides.list().map { try parseOverride($0, presets: presets) }
        }
        if let languages = top["languages"] {
            for (language, value) in try languages.mapping(allowed: nil) {
                // `fr: fr-fr` names a voice; a mapping is a whole voice (`fr: { name: fr, rate: 0.45 }`).
                let tag = language.lowercased().replacingOccurrences(of: "_", with: "-")
                layer.languages[tag] = value.isMapping ? try parseVoice(value, presets: presets)
                    : VoiceSettings(name: try value.string())
                if let line = value.line { layer.line["languages.\(tag)"] = line }
            }
        }
        try parseCast(top, presets: presets, into: &layer)
        if let lexicons = top["lexicons"] {
            let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
            let items = lexicons.isList ? try lexicons.list() : [lexicons]
            layer.lexicons = try items.map { item in
                let path = try item.string()
                let ext = (path as NSString).pathExtension.lowercased()
                guard ["yml", "yaml", "pls"].contains(ext) else {
                    throw item.error("a lexicon is a .yml (Lectern's form) or .pls (W3C PLS) file, found \(path)")
                }
                return (ManifestLoader.resolve(path, in: folder), item.line, file)
            }
        }
        return layer
    }

    /// The book's descriptive keys: text that is not empty, a well-formed language tag, a real
    /// date, a series index that is a number and comes with a series, an ISBN whose check digit
    /// is right.
    static func parseMetadata(_ top: [String: YAMLValue], into layer: inout ManifestLayer) throws {
        func text(_ key: String) throws -> String? {
            guard let v = top[key] else { return nil }
            let s = try v.string().trimmingCharacters(in: .whitespacesAndNewlines)
            guard !s.isEmpty else { throw v.error("must not be empty") }
            return s
        }
        if let v = top["language"] {
            let tag = try v.string().trimmingCharacters(in: .whitespaces)
            guard LanguageTag.isWellFormed(tag), LanguageTag.meaningful(tag) != nil else {
                throw v.error("expected a BCP 47 language tag such as en, en-GB or fr, found \"\(UserText.excerpt(tag))\"")
            }
            layer.language = tag
        }
        layer.details.narrator = try text("narrator")
        layer.details.description = try text("description")
        layer.details.genre = try text("genre")
        layer.details.publisher = try text("publisher")
        layer.details.copyright = try text("copyright")
        layer.details.series = try text("series")
        if top["date"] != nil, top["year"] != nil { throw top["year"]!.error("give either date or year, not both") }
        if let v = top["date"] {
            let s = try v.string().trimmingCharacters(in: .whitespaces)
            guard let date = BookDetails.validDate(s) else {
                throw v.error("expected a date written YYYY, YYYY-MM or YYYY-MM-DD (such as 1865-11-26), found \"\(UserText.excerpt(s))\"")
            }
            layer.details.date = date
        }
        if let year = try top.wholeNumber(.year) { layer.details.date = String(format: "%04d", year) }
        if let v = top["series_index"] {
            let s = try v.string().trimmingCharacters(in: .whitespaces)
            guard let n = Double(s), n >= 0, n < 1_000_000, s.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) else {
                throw v.error("expected the book's number in its series, such as 1 or 2.5, found \"\(UserText.excerpt(s))\"")
            }
            guard top["series"] != nil else { throw v.error("needs series: (the name of the series the book is part of)") }
            layer.details.seriesIndex = s
        }
        if let v = top["isbn"] {
            let s = try v.string()
            guard let isbn = BookDetails.isbn(s) else {
                throw v.error("\"\(UserText.excerpt(s))\" is not an ISBN-10 or ISBN-13 (10 or 13 digits, hyphens allowed, whose check digit is right)")
            }
            layer.details.isbn = isbn
        }
    }

    /// `cast:` (persona → a voice's name or a voice) and `cast_pool:` (a list of voices). Two
    /// entries naming one persona (`HAMLET` and `Hamlet.`) are an error at the second.
    static func parseCast(_ top: [String: YAMLValue], presets: [String: VoiceSettings], into layer: inout ManifestLayer) throws {
        func voice(_ value: YAMLValue) throws -> VoiceSettings {
            value.isMapping ? try parseVoice(value, presets: presets) : VoiceSettings(name: try value.string())
        }
        if let cast = top["cast"] {
            var entries: [String: Cast.Entry] = [:]
            for (written, value) in try cast.dictionary() {
                let key = Persona.key(written)
                guard key.contains(where: \.isLetter) else {
                    throw value.error("a persona's name as its speaker label says it (HAMLET, Lady Macbeth), found \"\(UserText.excerpt(written))\"")
                }
                if let other = entries[key] {
                    throw value.error("names the same persona as cast.\(UserText.excerpt(other.written))\(other.line.map { " (line \($0))" } ?? "") (names are compared in capitals, without a final period)")
                }
                entries[key] = Cast.Entry(written: written, voice: try voice(value), line: value.line)
                if let line = value.line { layer.line["cast.\(written)"] = line }
            }
            layer.cast = entries
        }
        if let pool = top["cast_pool"] {
            let voices = try pool.list().map(voice)
            guard !voices.isEmpty else { throw pool.error("must list at least one voice (a name such as en-gb+f2, or a voice mapping)") }
            layer.castPool = voices
        }
    }

    /// Reads the keys of the mapping at `parent` (`""` for the top level, `audio`) that have a
    /// ``LayerField``, in the table's order.
    static func readFields(of parent: String, from mapping: [String: YAMLValue], into layer: inout ManifestLayer) throws {
        for key in ManifestSchema.keys where key.parent == parent {
            if let field = key.field, let value = mapping[key.name] { try field.read(value, key, &layer) }
        }
    }

    /// How the error for `voice: { preset: NAME }` naming no preset starts (``ManifestLoader``
    /// adds where the presets were read).
    static let unknownPresetMessage = "unknown voice preset"

    static func parseVoice(_ value: YAMLValue, presets: [String: VoiceSettings]) throws -> VoiceSettings {
        let m = try value.mapping(schema: "voice")
        var voice = VoiceSettings()
        if let p = m["preset"] {
            let name = try p.string()
            guard let preset = presets[name] else {
                let known = presets.isEmpty ? "none are defined" : "known: " + presets.keys.sorted().joined(separator: ", ")
                throw p.error("\(unknownPresetMessage) \"\(UserText.excerpt(name))\"; \(known)")
            }
            voice = preset
        }
        let own = VoiceSettings(
            name: try m["name"]?.string(),
            rate: try m.number(.voiceRate),
            wpm: try m.wholeNumber(.voiceWPM),
            pitch: try m.number(.voicePitch),
            volume: try m.number(.voiceVolume)
        )
        if own.rate != nil, own.wpm != nil { throw value.error("give either rate or wpm, not both") }
        var engineVoice = VoiceSettings()
        if let e = m["engine"] {
            let engine = try e.string()
            guard VoiceSettings.engines.contains(engine) else {
                throw e.error("unknown engine \"\(UserText.excerpt(engine))\" (expected \(VoiceSettings.engines.joined(separator: " or ")))")
            }
            engineVoice.engine = engine
        }
        if let m = m["model"] {
            guard engineVoice.engine != ResolvedVoice.espeakEngine else {
                throw m.error("a model file is a Piper voice's: give engine: piper (or leave engine out)")
            }
            // Relative to the file that names it (the manifest, or Config/ for defaults and presets).
            let folder = URL(fileURLWithPath: m.file).deletingLastPathComponent()
            let url = ManifestLoader.resolve(try m.string(), in: folder)
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw m.error("no such file: \(url.path) (a Piper voice's .onnx, prepared with Scripts/prepare-piper-voice.py)")
            }
            engineVoice.model = url.path
        }
        if let sp = m["speaker"] {
            let speaker = try sp.string()
            guard engineVoice.engine != ResolvedVoice.espeakEngine else {
                throw sp.error("a speaker is a multi-speaker Piper voice's: give engine: piper (or leave engine out)")
            }
            guard !speaker.isEmpty else { throw sp.error("an empty speaker (give a speaker's name or id; `lectern voices` lists them)") }
            engineVoice.speaker = speaker  // implies Piper, as a model does (VoiceSettings.engineGiven)
        }
        if engineVoice.engineGiven == ResolvedVoice.piperEngine, let p = m["pitch"] {
            throw p.error("a Piper voice has no pitch setting (remove pitch, or use engine: espeak-ng)")
        }
        var given = own
        given.engine = engineVoice.engine
        given.model = engineVoice.model
        given.speaker = engineVoice.speaker
        return given.merged(over: voice)
    }

    static func parseSource(_ value: YAMLValue) throws -> SourceLayer {
        if !value.isMapping {
            return SourceLayer(path: try value.string(), format: nil, chapters: ChapterRule(), skip: [], line: value.line)
        }
        let m = try value.mapping(schema: "sources[]")
        guard let pathValue = m["path"] else { throw value.error("a source needs a path") }
        var source = SourceLayer(path: try pathValue.string(), format: nil, chapters: ChapterRule(), skip: [], line: value.line)
        for (key, v) in m { source.given[key] = v.line }
        if let f = m["format"] {
            let s = try f.string()
            guard let format = Source.Format(rawValue: s) else {
                throw f.error("unknown format \"\(UserText.excerpt(s))\" (expected one of: \(Source.Format.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            source.format = format
        }
        source.chapters.title = try m["title"]?.string()
        if let c = m["chapters"], !c.isMapping {
            let value = try c.string()
            guard let detection = ChapterRule.Detection(rawValue: value) else {
                throw c.error("expected auto (find the book's chapters), none (one chapter), toc (EPUB) or a mapping with heading/level/selector, found \"\(UserText.excerpt(value))\"")
            }
            source.chapters.detection = detection
            if detection == .toc { source.given["chapters.toc"] = c.line }
        } else if let c = m["chapters"] {
            let cm = try c.mapping(schema: "sources[].chapters")
            for (key, v) in cm { source.given["chapters.\(key)"] = v.line }
            if let h = cm["heading"] {
                let pattern = try h.string()
                guard UserRegex.isValid(pattern, options: [.anchorsMatchLines]) else {
                    throw h.error("not a valid regular expression: \(UserText.excerpt(pattern))")
                }
                source.chapters.heading = pattern
            }
            source.chapters.subtitle = try cm["subtitle"]?.bool() ?? false
            source.chapters.skipBeforeFirst = try cm["skip_before_first"]?.bool() ?? false
            source.chapters.level = try cm.wholeNumber(.chapterLevel) ?? 1
            source.chapters.levelGiven = cm["level"] != nil
            source.chapters.selector = try cm["selector"]?.string()
            if cm["level"] != nil, cm["selector"] != nil { throw c.error("give either level or selector, not both") }
        }
        func regex(_ key: String) throws -> String? {
            guard let v = m[key] else { return nil }
            let pattern = try v.string()
            guard UserRegex.isValid(pattern) else { throw v.error("not a valid regular expression: \(UserText.excerpt(pattern))") }
            return pattern
        }
        func choice<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type) throws -> T? where T.RawValue == String {
            guard let v = m[key] else { return nil }
            let s = try v.string()
            guard let c = T(rawValue: s) else {
                throw v.error("unknown value \"\(UserText.excerpt(s))\" (expected one of: \(T.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return c
        }
        source.rules.startAt = try regex("start_at")
        source.rules.startAfter = try regex("start_after")
        source.rules.endAt = try regex("end_at")
        if source.rules.startAt != nil, source.rules.startAfter != nil { throw value.error("give either start_at or start_after, not both") }
        source.rules.tables = try choice("tables", ReadingRules.Tables.self) ?? .read
        source.rules.footnotes = try choice("footnotes", ReadingRules.Footnotes.self) ?? .chapter
        source.rules.nonLinear = try choice("nonlinear", ReadingRules.NonLinear.self) ?? .skip
        source.rules.malformed = try choice("malformed", ReadingRules.Malformed.self) ?? .error
        source.rules.pronunciation = try m["pronunciation"]?.bool() ?? true
        source.rules.illustrations = try choice("illustrations", ReadingRules.Illustrations.self) ?? .skip
        source.rules.stageDirections = try choice("stage_directions", ReadingRules.StageDirections.self) ?? .read
        if let matter = m["matter"] { source.rules.matter = try parseMatter(matter) }
        if let e = m["encoding"] {
            let name = try e.string().trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.:".contains($0) }) else {
                throw e.error("expected an encoding name such as auto, utf-8, utf-16, windows-1252 or iso-8859-1, found \"\(UserText.excerpt(name))\"")
            }
            source.rules.encoding = name
        }
        if let s = m["skip"] {
            source.skip = try s.strings()
            // Each pattern's own line, for errors about one of them (`skip[2]`).
            if s.isList { for (i, item) in try s.list().enumerated() { source.given["skip[\(i + 1)]"] = item.line } }
            for (i, pattern) in source.skip.enumerated() {
                guard UserRegex.isValid(pattern) else {
                    throw (s.isList ? try s.list()[i] : s).error("not a valid regular expression: \(UserText.excerpt(pattern))")
                }
            }
        }
        return source
    }

    /// `matter: { front: read|skip, back: read|skip }`; a missing side is skipped.
    static func parseMatter(_ value: YAMLValue) throws -> ReadingRules.Matter {
        let m = try value.mapping(schema: "sources[].matter")
        var matter = ReadingRules.Matter()
        for (side, v) in m {
            let s = try v.string()
            guard let reading = ReadingRules.Matter.Reading(rawValue: s) else {
                throw v.error("expected read or skip, found \"\(UserText.excerpt(s))\"")
            }
            if side == "front" { matter.front = reading } else { matter.back = reading }
        }
        return matter
    }

    static func parseOverride(_ value: YAMLValue, presets: [String: VoiceSettings]) throws -> ChapterOverride {
        let m = try value.mapping(schema: "overrides[]")
        guard let c = m["chapter"] else { throw value.error("an override needs `chapter:` (a number or a title)") }
        let selector: ChapterOverride.Selector
        if let n = c.node.int, c.node.scalar?.style == .plain {
            guard n >= 1 else { throw c.error("chapter numbers start at 1") }
            selector = .number(n)
        } else {
            selector = .title(try c.string())
        }
        return ChapterOverride(
            chapter: selector,
            voice: try m["voice"].map { try parseVoice($0, presets: presets) },
            title: try m["title"]?.string(),
            skip: try m["skip"]?.bool() ?? false,
            line: value.line
        )
    }

    /// libyaml's words for a problem without its function names ("Maximum nesting level reached,
    /// set with yaml_set_max_nest_level()").
    static func plain(_ problem: String) -> String {
        if problem.lowercased().contains("nesting level") {
            return "lists and mappings nested too deeply (a manifest needs a few levels, not thousands)"
        }
        let cut = problem.replacingOccurrences(of: #",?\s*(set with |see )?\w*yaml_\w+\(\)\)?"#, with: "", options: .regularExpression)
        return UserText.excerpt(cut)
    }

    /// The error at its line, quoting at most an excerpt of what it found (never the line
    /// itself: Yams's description holds the whole line, and a caret line as long).
    static func manifestError(_ error: YamlError, file: String) -> ManifestError {
        switch error {
        case let .reader(problem, offset, _, yaml):
            let line = offset.map { offset in yaml.utf8.prefix(offset).reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) } }
            return ManifestError(file: file, line: line, message: "not valid YAML: \(plain(problem))")
        case let .scanner(_, problem, mark, _), let .parser(_, problem, mark, _), let .composer(_, problem, mark, _):
            return ManifestError(file: file, line: mark.line, message: "not valid YAML: \(plain(problem))")
        case let .duplicatedKeysInMapping(duplicates, context):
            return ManifestError(file: file, line: context.mark.line, key: duplicates.first, message: "key appears twice")
        default:
            return ManifestError(file: file, message: "not valid YAML: \(UserText.excerpt("\(error)"))")
        }
    }
}
