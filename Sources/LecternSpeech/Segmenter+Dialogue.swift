import LecternCore
import LecternText

/// Quoted speech (`dialogue:`): which blocks have it, where it is, and the voice segments of an
/// utterance that has both speech and text in another language.
extension Segmenter {
    /// Whether blocks of `kind` are prose that may quote speech (not headings, nor a play's
    /// speaker labels and stage directions, which a cast reads).
    static func mayQuoteSpeech(_ kind: BlockKind) -> Bool {
        switch kind {
        case .paragraph, .quote, .listItem: true
        case .heading, .speaker, .stageDirection: false
        }
    }

    /// The scanner of the book's quoted speech, its outer quotation marks decided from the book's
    /// prose; nil without `dialogue:`.
    func dialogueQuotes(in book: Book, language: String?) -> DialogueQuotes? {
        guard manifest.dialogue != nil else { return nil }
        let prose = book.chapters.flatMap { $0.blocks.filter { Self.mayQuoteSpeech($0.kind) }.map(\.text) }
        return DialogueQuotes(language: language, sample: prose)
    }

    /// The voice of quoted speech in a block read with `voice`: the `dialogue:` settings over it;
    /// in a block read in another language (`switched`), only their rate, pitch and volume, so
    /// that the language keeps its voice.
    func dialogueVoice(over voice: VoiceSettings, switched: Bool) -> VoiceSettings? {
        guard let dialogue = manifest.dialogue else { return nil }
        guard switched else { return dialogue.merged(over: voice) }
        return VoiceSettings(rate: dialogue.rate, wpm: dialogue.wpm, pitch: dialogue.pitch, volume: dialogue.volume).merged(over: voice)
    }

    /// The parts of a text spoken with another voice than `voice`, in order and not overlapping:
    /// each span in another language with its language's voice, each stretch of `speech` with the
    /// speech's voice. Where the two meet, the language wins the voice and the speech gives its
    /// rate, pitch and volume: the language's voice is chosen over the speech's settings.
    ///
    /// - parameters:
    ///     - spans: Spans marked or found in another language, in order, not overlapping.
    ///     - speech: Quoted speech (UTF-16 ranges), in order, not overlapping.
    ///     - languageVoice: The voice for a language over a voice, or nil when that voice already speaks it.
    static func voiceSegments(spans: [LanguageSpan], speech: [Range<Int>], voice: VoiceSettings, speechVoice: VoiceSettings?,
                              languageVoice: (String, VoiceSettings) throws -> VoiceSettings?) throws -> [VoiceSegment] {
        let speech = speechVoice == nil ? [] : speech
        var cuts = Set<Int>()
        for span in spans { cuts.insert(span.offset); cuts.insert(span.offset + span.length) }
        for range in speech { cuts.insert(range.lowerBound); cuts.insert(range.upperBound) }
        let points = cuts.sorted()
        var segments: [VoiceSegment] = []
        var sources: [Int?] = []  // the span each segment reads, so that two spans never merge
        for (start, end) in zip(points, points.dropFirst()) where start < end {
            let spanIndex = spans.firstIndex { $0.offset <= start && end <= $0.offset + $0.length }
            let inSpeech = speech.contains { $0.lowerBound <= start && end <= $0.upperBound }
            let base = inSpeech ? speechVoice! : voice
            var segment: VoiceSegment?
            var source = spanIndex
            if let spanIndex, let switched = try languageVoice(spans[spanIndex].language, base) {
                segment = VoiceSegment(offset: start, length: end - start, voice: switched.resolved(), language: spans[spanIndex].language,
                                       dialogue: inSpeech)
            } else if inSpeech {
                segment = VoiceSegment(offset: start, length: end - start, voice: base.resolved(), language: nil, dialogue: true)
                source = nil
            }
            guard let segment else { continue }
            if let last = segments.last, last.offset + last.length == start, last.voice == segment.voice,
               last.language == segment.language, last.dialogue == segment.dialogue, sources.last! == source {
                segments[segments.count - 1].length += segment.length
            } else {
                segments.append(segment)
                sources.append(source)
            }
        }
        return segments
    }
}
