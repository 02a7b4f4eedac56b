import Yams

extension ManifestLayer {
    /// This layer's values over `base`'s: scalars replace, voices and styles merge field by field,
    /// pauses merge per kind and per side.
    func merged(over base: ManifestLayer) -> ManifestLayer {
        var r = base
        r.name = name ?? base.name
        r.title = title ?? base.title
        r.author = author ?? base.author
        r.output = output ?? base.output
        r.cover = cover ?? base.cover
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
        r.bitrate = bitrate ?? base.bitrate
        r.loudness = loudness ?? base.loudness
        r.quality = quality ?? base.quality
        r.timings = timings ?? base.timings
        r.vtt = vtt ?? base.vtt
        r.split = split ?? base.split
        r.formats = formats ?? base.formats
        r.profile = profile ?? base.profile
        r.credits = credits ?? base.credits
        r.schedule = schedule ?? base.schedule
        r.timeZone = timeZone ?? base.timeZone
        r.watch = watch ?? base.watch
        r.priority = priority ?? base.priority
        r.chunkAttempts = chunkAttempts ?? base.chunkAttempts
        r.catchUp = catchUp ?? base.catchUp
        r.retry = (retry?.limit ?? base.retry?.limit, retry?.delay ?? base.retry?.delay, retry?.maxDelay ?? base.retry?.maxDelay)
        r.languages = base.languages.merging(languages) { $1 }
        r.languageSwitching = languageSwitching ?? base.languageSwitching
        r.cast = cast.map { (base.cast ?? [:]).merging($0) { $1 } } ?? base.cast
        r.castPool = castPool ?? base.castPool
        r.speakerLabels = speakerLabels ?? base.speakerLabels
        r.urls = urls ?? base.urls
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
