import Foundation

/// Loads a manifest: reads `Config/` (defaults and voice presets), parses the manifest over them,
/// resolves relative paths against the manifest's folder, and checks that every source exists.
public struct ManifestLoader: Sendable {
    /// The configuration folder in use, or nil when the built-in defaults apply.
    public var configDirectory: URL?

    /// The defaults used when no `Config/defaults.yml` is found.
    public static let builtInDefaults = """
        voice: { name: en, rate: 0.5, pitch: 1.0, volume: 1.0 }
        pauses:
          paragraph: { before: 0.0, after: 0.5 }
          heading:   { before: 0.5, after: 1.0 }
          quote:     { before: 0.2, after: 0.6 }
          list_item: { before: 0.0, after: 0.4 }
          speaker:   { before: 0.3, after: 0.3 }
          stage_direction: { before: 0.3, after: 0.5 }
          chapter:   { before: 0.0, after: 2.0 }
          section:   { before: 1.5, after: 0.0 }
        audio: { bitrate: 64, quality: 7 }
        timings: [json]
        """

    /// - parameters:
    ///     - configDirectory: A `Config` folder to use. When nil, `LECTERN_CONFIG` is used if set,
    ///       else the first `Config/defaults.yml` found walking up from the manifest's folder.
    public init(configDirectory: URL? = nil) {
        self.configDirectory = configDirectory
    }

    /// Whether sources, cover and lexicons must exist. `lectern daemon` reads a job's schedule
    /// with this off, so that a job whose source went missing is still run — and fails, and is
    /// retried, with the error in the store — rather than silently left out.
    public var checksFiles = true

    /// Loads and validates the manifest at `url`.
    ///
    /// - throws: ``ManifestError`` naming the file, line and key of the first problem.
    public func load(_ url: URL) throws -> Manifest {
        let file = url.path
        let yaml: String
        if Self.isDocument(url) {
            // A document given alone: read with everything inferred, as `lectern init` would write it.
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw ManifestError(file: file, message: "no such file")
            }
            yaml = Self.implicitManifest(for: url)
        } else {
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw ManifestError(file: file, message: "cannot read the manifest (no such file or not readable)")
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw ManifestError(file: file, message: "the manifest is not valid UTF-8")
            }
            yaml = text
        }
        let location = try configDirectory.map { ConfigLocation(folder: $0, searched: [$0.path]) }
            ?? ConfigLocation.find(near: url.deletingLastPathComponent())
        let config = location.folder
        let presets = try Self.loadPresets(config)
        var defaults = try ManifestLayer.parse(yaml: Self.builtInDefaults, file: "built-in defaults", presets: presets)
        if let config {
            let defaultsURL = config.appendingPathComponent("defaults.yml")
            if let text = try? String(contentsOf: defaultsURL, encoding: .utf8) {
                let layer = try Self.sayingWhereConfigIs(location) {
                    try ManifestLayer.parse(yaml: text, file: defaultsURL.path, presets: presets, isDefaults: true)
                }
                defaults = layer.merged(over: defaults)
            }
        }
        let layer = try Self.sayingWhereConfigIs(location) { try ManifestLayer.parse(yaml: yaml, file: file, presets: presets) }
        let merged = layer.merged(over: defaults)
        try Self.checkPitch(layer, merged: merged, file: file)
        var manifest = try resolve(merged, manifest: url, lines: layer.line)
        manifest.configDirectory = config
        for i in manifest.sources.indices { manifest.sources[i].regexBudget = manifest.regexBudget }
        manifest.voiceFollowsBook = layer.voice?.name == nil && layer.voice?.engineGiven == nil
        return manifest
    }

    private func resolve(_ layer: ManifestLayer, manifest url: URL, lines: [String: Int]) throws -> Manifest {
        let file = url.path
        let folder = url.deletingLastPathComponent()
        let stem = url.deletingPathExtension().lastPathComponent
        // An EPUB names its own title; the reader fills it in (see `Manifest.filling(from:)`).
        let fromEPUB = layer.sources?.contains { $0.format == .epub || $0.path.lowercased().hasSuffix(".epub") } ?? false
        let title = layer.title?.trimmingCharacters(in: .whitespaces) ?? ""
        guard !title.isEmpty || fromEPUB || Self.isDocument(url) else {
            throw ManifestError(file: file, key: "title", message: "missing (every manifest needs a title, unless an EPUB source gives one)")
        }
        guard let sourceLayers = layer.sources, !sourceLayers.isEmpty else {
            throw ManifestError(file: file, line: lines["sources"], key: "sources", message: "missing or empty (list at least one document)")
        }
        var sources: [Source] = []
        for (i, s) in sourceLayers.enumerated() {
            let key = "sources[\(i + 1)]"
            for expanded in try expand(s.path, in: folder, file: file, line: s.line, key: key) {
                let format = s.format ?? Source.format(forExtension: expanded.pathExtension)
                if let (given, formats) = Self.inapplicableKey(s.given.keys, for: format) {
                    throw ManifestError(file: file, line: s.given[given] ?? s.line, key: "\(key).\(given)",
                                        message: "applies to \(formats) sources, and \(expanded.lastPathComponent) is read as \(format.rawValue)")
                }
                let display = s.path.contains("*") ? expanded.lastPathComponent : s.path
                var source = Source(url: expanded, displayPath: display, format: format, chapters: s.chapters, skip: s.skip, rules: s.rules)
                source.origin = ManifestError(file: file, line: s.line, key: key, message: "")
                source.root = folder
                source.keyLines = s.given.compactMapValues { $0 }
                sources.append(source)
            }
        }
        // A name taken from a hidden file's name (`.book.yml`, a document `.notes.txt` given alone)
        // drops its leading dots: the outputs are never hidden files.
        let name = layer.name ?? Self.visibleName(stem)
        let output: URL
        if let o = layer.output {
            output = Self.resolve(o, in: folder)
        } else if folder.lastPathComponent == "Jobs" {
            output = folder.deletingLastPathComponent().appendingPathComponent("out").appendingPathComponent(name)
        } else {
            output = folder.appendingPathComponent("out").appendingPathComponent(name)
        }
        var cover: URL?
        if let c = layer.cover {
            let u = Self.resolve(c, in: folder)
            guard FileManager.default.fileExists(atPath: u.path) || !checksFiles else {
                throw ManifestError(file: file, line: lines["cover"], key: "cover", message: "no such file: \(u.path)")
            }
            guard ["jpg", "jpeg", "png"].contains(u.pathExtension.lowercased()) else {
                throw ManifestError(file: file, line: lines["cover"], key: "cover", message: "must be a JPEG or PNG file: \(u.path)")
            }
            cover = u
        }
        for lexicon in layer.lexicons where checksFiles && !FileManager.default.fileExists(atPath: lexicon.url.path) {
            throw ManifestError(file: lexicon.file, line: lexicon.line, key: "lexicons", message: "no such file: \(lexicon.url.path)")
        }
        var pauses = Pauses()
        for kind in BlockKind.allCases {
            let p = layer.pauses[kind.rawValue]
            pauses.byKind[kind] = Pause(before: p?.before ?? 0, after: p?.after ?? 0)
        }
        pauses.chapter = Pause(before: layer.pauses["chapter"]?.before ?? 0, after: layer.pauses["chapter"]?.after ?? 0)
        pauses.section = Pause(before: layer.pauses["section"]?.before ?? 0, after: layer.pauses["section"]?.after ?? 0)
        var scheduling = Scheduling()
        scheduling.timeZone = layer.timeZone
        scheduling.watch = layer.watch ?? scheduling.watch
        scheduling.priority = layer.priority ?? scheduling.priority
        scheduling.chunkAttempts = layer.chunkAttempts ?? scheduling.chunkAttempts
        scheduling.catchUp = layer.catchUp ?? scheduling.catchUp
        scheduling.retryLimit = layer.retryLimit ?? scheduling.retryLimit
        scheduling.retryDelay = layer.retryDelay ?? scheduling.retryDelay
        scheduling.retryMaxDelay = max(layer.retryMaxDelay ?? scheduling.retryMaxDelay, scheduling.retryDelay)
        var manifest = Manifest(
            file: url, name: name, title: title, author: layer.author, outputDirectory: output, cover: cover,
            sources: sources, voice: layer.voice ?? VoiceSettings(), pauses: pauses, styles: layer.styles,
            overrides: layer.overrides, audio: AudioSettings(bitrate: layer.bitrate ?? 64, quality: layer.quality ?? AudioSettings.defaultQuality,
                                 loudness: layer.loudness ?? LoudnessTarget.standard),
            timings: layer.timings ?? [.json], schedule: layer.schedule, lines: lines,
            languages: layer.languages, languageSwitching: layer.languageSwitching ?? .detect,
            lexicons: layer.lexicons.map(\.url)
        )
        manifest.scheduling = scheduling
        manifest.dialogue = layer.dialogue
        manifest.urls = layer.urls ?? .domain
        manifest.vtt = layer.vtt ?? .sentences
        manifest.profile = layer.profile
        manifest.split = layer.split ?? (layer.profile == .acx ? .chaptersOnly : .none)
        manifest.formats = layer.formats ?? [.mp3]
        manifest.credits = layer.credits ?? (layer.profile != nil)
        if let profile = layer.profile, layer.loudness == nil { manifest.audio.loudness = profile.loudness }
        manifest.audio.keepsPCM = manifest.formats.contains(where: \.needsPCM) || manifest.profile == .acx
        if manifest.profile == .acx, !manifest.split.writesChapters || !manifest.formats.contains(.mp3) {
            let key = lines["split"] != nil && !manifest.split.writesChapters ? "split" : "formats"
            throw ManifestError(file: file, line: lines[key] ?? lines["profile"], key: key,
                                message: "profile: acx delivers one MP3 per chapter: it needs mp3 among the formats and split: chapters or chapters-only")
        }
        if manifest.split == .chaptersOnly, manifest.timings.contains(.html) {
            throw ManifestError(file: file, line: lines["timings"] ?? lines["split"], key: lines["timings"] != nil ? "timings" : "split",
                                message: "the read-along page (html) plays the book's own file, which split: chapters-only does not write; use split: chapters or leave html out")
        }
        manifest.language = layer.language
        manifest.details = layer.details
        manifest.cast.entries = layer.cast ?? [:]
        manifest.cast.pool = layer.castPool
        manifest.cast.speakerLabelsGiven = layer.speakerLabels
        manifest.cast.isOn = layer.cast != nil || layer.castPool != nil
        return manifest
    }

    /// A pitch the manifest itself sets for a voice that is a Piper voice once merged (Piper has no
    /// pitch): an error at the key. (A pitch from the defaults or a preset is a warning, given when
    /// the book is segmented.)
    static func checkPitch(_ layer: ManifestLayer, merged: ManifestLayer, file: String) throws {
        let book = merged.voice ?? VoiceSettings()
        var given: [(key: String, own: VoiceSettings?, effective: VoiceSettings)] = [("voice", layer.voice, book)]
        for (kind, own) in layer.styles {
            given.append(("styles.\(kind.rawValue)", own, (merged.styles[kind] ?? own).merged(over: book)))
        }
        if let own = layer.dialogue { given.append(("dialogue", own, (merged.dialogue ?? own).merged(over: book))) }
        for (i, o) in layer.overrides.enumerated() {
            if let v = o.voice { given.append(("overrides[\(i + 1)].voice", v, v.merged(over: book))) }
        }
        for (written, entry) in (layer.cast ?? [:]).values.map({ ($0.written, $0) }) {
            given.append(("cast.\(written)", entry.voice, entry.voice.merged(over: book)))
        }
        for (key, own, effective) in given where own?.pitch != nil && effective.engineGiven == ResolvedVoice.piperEngine {
            let top = String(key.prefix { $0 != "." && $0 != "[" })
            throw ManifestError(file: file, line: layer.line[key] ?? layer.line[top], key: "\(key).pitch",
                                message: "a Piper voice has no pitch setting (remove pitch, or give this voice engine: espeak-ng)")
        }
    }

    /// Whether `url` is a document rather than a manifest (anything but `.yml`/`.yaml`).
    public static func isDocument(_ url: URL) -> Bool {
        !["yml", "yaml"].contains(url.pathExtension.lowercased())
    }

    /// The manifest of a document given alone: the document as the only source, everything else
    /// from the defaults; the title comes from the document (or its file name), the output goes to
    /// `out/NAME` beside it.
    static func implicitManifest(for document: URL) -> String {
        "sources:\n  - path: \(yamlQuoted(document.lastPathComponent))\n"
    }

    /// `text` as a YAML scalar that reads back as exactly `text`: single-quoted, or — when it holds
    /// a control character, which a single-quoted scalar would fold (a newline into a space) —
    /// double-quoted with quotes, backslashes and control characters escaped.
    public static func yamlQuoted(_ text: String) -> String {
        if !text.unicodeScalars.contains(where: UserText.isControl) {
            return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if UserText.isControl(scalar) {
                    out += String(format: "\\u%04X", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// The first given key (sorted) that does not apply to `format`, with the formats it applies to.
    static func inapplicableKey(_ keys: some Sequence<String>, for format: Source.Format) -> (String, String)? {
        for key in keys.sorted() {
            if let formats = ManifestSchema.sourceKeyFormats[key], !formats.contains(format) {
                return (key, formats.map { $0 == .text ? "plain text" : $0 == .markdown ? "Markdown" : $0.rawValue.uppercased() }
                    .joined(separator: ", "))
            }
        }
        return nil
    }

    /// A path made absolute against `folder` (`~` expands to the home folder).
    /// `stem` without its leading dots (`.book` → `book`; `book` when nothing is left).
    static func visibleName(_ stem: String) -> String {
        let visible = String(stem.drop { $0 == "." })
        return visible.isEmpty ? "book" : visible
    }

    static func resolve(_ path: String, in folder: URL) -> URL {
        let expanded = (path as NSString).expandingTildeInPath
        if expanded.hasPrefix("/") { return URL(fileURLWithPath: expanded).standardizedFileURL }
        return folder.appendingPathComponent(expanded).standardizedFileURL
    }

    /// Expands a source path; a `*` in the file name matches files in that folder, sorted by name.
    private func expand(_ path: String, in folder: URL, file: String, line: Int?, key: String) throws -> [URL] {
        let url = Self.resolve(path, in: folder)
        let fm = FileManager.default
        // A pattern, unless a file has that very name.
        if url.lastPathComponent.contains("*") && !fm.fileExists(atPath: url.path) {
            let dir = url.deletingLastPathComponent()
            let pattern = "^" + NSRegularExpression.escapedPattern(for: url.lastPathComponent).replacingOccurrences(of: "\\*", with: ".*") + "$"
            let regex = try! NSRegularExpression(pattern: pattern)
            let names = ((try? fm.contentsOfDirectory(atPath: dir.path)) ?? []).filter { name in
                var isDirectory: ObjCBool = false
                return !name.hasPrefix(".") && regex.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil
                    && fm.fileExists(atPath: dir.appendingPathComponent(name).path, isDirectory: &isDirectory) && !isDirectory.boolValue
            }.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
            guard !names.isEmpty || !checksFiles else {
                throw ManifestError(file: file, line: line, key: key, message: "no file matches \(url.path)")
            }
            return names.map { dir.appendingPathComponent($0) }
        }
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            if !checksFiles { return [url] }
            throw ManifestError(file: file, line: line, key: key, message: "no such file: \(url.path)")
        }
        guard !isDirectory.boolValue else {
            throw ManifestError(file: file, line: line, key: key, message: "\(url.path) is a folder; list its files or use a pattern such as dir/*.md")
        }
        return [url]
    }

    /// The Config folder for a manifest in `folder` (``ConfigLocation``), else nil (built-in defaults).
    ///
    /// - throws: ``ManifestError`` when `LECTERN_CONFIG` names anything but a Config folder or its defaults.yml.
    public static func findConfig(near folder: URL) throws -> URL? {
        try ConfigLocation.find(near: folder).folder
    }

    /// Runs `parse`; an unknown voice preset's error says which Config folder's `voices.yml` was
    /// read, or every place a Config folder was looked for when none was found.
    static func sayingWhereConfigIs<T>(_ location: ConfigLocation, _ parse: () throws -> T) throws -> T {
        do { return try parse() } catch var error as ManifestError where error.message.hasPrefix(ManifestLayer.unknownPresetMessage) {
            if let folder = location.folder {
                error.message += " (the presets of \(folder.appendingPathComponent("voices.yml").path))"
            } else {
                error.message += " (no Config folder was found, so there are no presets; looked in: \(location.searched.joined(separator: ", ")))"
            }
            throw error
        }
    }

    static func loadPresets(_ config: URL?) throws -> [String: VoiceSettings] {
        guard let config else { return [:] }
        let url = config.appendingPathComponent("voices.yml")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [:] }
        guard let node = try ManifestLayer.composeChecked(text, file: url.path) else { return [:] }
        var presets: [String: VoiceSettings] = [:]
        for (name, value) in try YAMLValue(node: node, key: "", file: url.path).dictionary() {
            presets[name] = try ManifestLayer.parseVoice(value, presets: [:])
        }
        return presets
    }
}
