import LecternCore

/// Chooses the voice for text marked as another language, per BCP 47: the manifest's
/// `languages` entry (espeak-ng's unless it names `engine: piper`) for the tag or a shorter form of it (`de-at`, then `de`), else the installed
/// espeak-ng voice for the tag or a shorter form (`de-DE` → `de`, `zh-CN` → `zh`), else none —
/// the text is read with the voice around it, and a warning says so once per language.
/// `und`, `mul`, `zxx`, `x-…` and empty tags mean no switch (``LanguageTag/meaningful(_:)``).
final class LanguageVoices {
    let manifest: Manifest
    /// The installed voice for a tag, or nil (by default espeak-ng's).
    let installed: (String) -> String?
    private var found: [String: String?] = [:]
    /// One line per language no voice speaks, in the order met.
    private(set) var warnings: [String] = []
    private var warned: Set<String> = []

    /// Adds `message` about `tag` unless one was given for it already.
    func warn(_ tag: String, _ message: String) {
        if warned.insert(tag).inserted { warnings.append(message) }
    }

    init(manifest: Manifest, installed: ((String) -> String?)? = nil) {
        self.manifest = manifest
        self.installed = installed ?? { tag in (try? EspeakEngine.shared())?.installedVoice(forLanguage: tag) }
    }

    /// The installed voice for `tag`, asked once per tag.
    func installedVoice(_ tag: String) -> String? {
        if let known = found[tag] { return known }
        let voice = installed(tag)
        found[tag] = voice
        return voice
    }

    /// Whether a voice speaks `tag`: the manifest maps it (or a shorter form), or one is installed.
    func speaks(_ tag: String) -> Bool {
        manifest.languageKey(for: tag) != nil || installedVoice(tag) != nil
    }

    /// The voice settings for text in `language` (before the voice around it is merged in), or
    /// nil: no switch, or no voice speaks it (then a warning naming `place`).
    ///
    /// - throws: ``ManifestError`` at `languages.TAG` on its line when the manifest maps the
    ///   language to a voice that is not installed.
    func voice(for language: String, place: @autoclosure () -> String) throws -> VoiceSettings? {
        guard let tag = LanguageTag.meaningful(language) else { return nil }
        if let key = manifest.languageKey(for: tag), var mapped = manifest.languages[key] {
            // A language's voice is espeak-ng's unless its entry names another engine.
            if mapped.engineGiven == nil {
                mapped.engine = ResolvedVoice.espeakEngine
                if mapped.name == nil { mapped.name = installedVoice(tag) ?? tag }
            }
            if mapped.engineGiven == ResolvedVoice.espeakEngine, let name = mapped.name, installedVoice(name.lowercased()) == nil {
                throw ManifestError(file: manifest.file.path, line: manifest.lines["languages.\(key)"] ?? manifest.lines["languages"],
                                    key: "languages.\(key)",
                                    message: "unknown voice \"\(UserText.excerpt(name))\" (run `lectern voices` to list the installed voices and languages)")
            }
            return mapped
        }
        guard let voice = installedVoice(tag) else {
            warn(tag, "no installed voice speaks \"\(language)\" (\(place())); read with the voice around it")
            return nil
        }
        return VoiceSettings(name: voice, engine: ResolvedVoice.espeakEngine)
    }
}
