import Yams

extension ManifestLayer {
    /// This layer's values over `base`'s, as each key's ``ManifestKey/merge`` says: the keys read
    /// by a ``LayerField`` merge by it (their values replace); voices and styles merge field by
    /// field, pauses per kind and per side.
    func merged(over base: ManifestLayer) -> ManifestLayer {
        var r = base
        for key in ManifestSchema.keys { key.field?.merge(self, &r) }
        r.language = language ?? base.language
        r.details = details.filling(from: base.details)
        r.sources = sources ?? base.sources
        r.voice = voice.map { $0.merged(over: base.voice ?? VoiceSettings()) } ?? base.voice
        for (kind, p) in pauses {
            let b = base.pauses[kind]
            r.pauses[kind] = PauseLayer(before: p.before ?? b?.before, after: p.after ?? b?.after)
        }
        r.dialogue = dialogue.map { $0.merged(over: base.dialogue ?? VoiceSettings()) } ?? base.dialogue
        for (kind, v) in styles { r.styles[kind] = v.merged(over: base.styles[kind] ?? VoiceSettings()) }
        r.overrides = base.overrides + overrides
        r.languages = base.languages.merging(languages) { $1 }
        r.cast = cast.map { (base.cast ?? [:]).merging($0) { $1 } } ?? base.cast
        r.castPool = castPool ?? base.castPool
        r.lexicons = lexicons + base.lexicons  // this layer's words win over the defaults'
        return r
    }

    /// The YAML text's root node, after ``YAMLAliasCheck`` has limited its aliases.
    ///
    /// - throws: ``ManifestError`` for text that is not valid YAML or whose aliases go over the limits.
    static func composeChecked(_ yaml: String, file: String) throws -> Node? {
        try YAMLAliasCheck.check(yaml, file: file)
        do { return try Yams.compose(yaml: yaml) } catch let error as YamlError { throw manifestError(error, file: file) }
    }
}
