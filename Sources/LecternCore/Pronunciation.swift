/// How a stretch of text is to be spoken instead of as written: espeak-ng phonemes (`[[…]]`) or
/// a respelling. Word timings keep pointing at the original text.
public struct Pronunciation: Sendable, Equatable, Codable {
    /// UTF-16 range in the text it belongs to (a block's, an utterance's or a chunk item's).
    public var offset: Int
    public var length: Int
    /// What the engine reads instead: `[[espeak phonemes]]` or plain words.
    public var spoken: String

    public init(offset: Int, length: Int, spoken: String) {
        self.offset = offset
        self.length = length
        self.spoken = spoken
    }

    /// Whether `spoken` is phoneme input for espeak-ng.
    public var isPhonemes: Bool { spoken.hasPrefix("[[") }

    public var end: Int { offset + length }

    /// `candidates` (in priority order) added to `accepted` where they overlap nothing already
    /// there; the result is sorted by offset.
    public static func merging(_ accepted: [Pronunciation], _ candidates: [Pronunciation]) -> [Pronunciation] {
        var result = accepted
        for c in candidates where !result.contains(where: { $0.offset < c.end && c.offset < $0.end }) {
            result.append(c)
        }
        return result.sorted { $0.offset < $1.offset }
    }

    /// The pronunciations that lie wholly inside `range`, shifted to be relative to its start.
    public static func slice(_ pronunciations: [Pronunciation], to range: Range<Int>) -> [Pronunciation] {
        pronunciations.filter { $0.offset >= range.lowerBound && $0.end <= range.upperBound }.map {
            Pronunciation(offset: $0.offset - range.lowerBound, length: $0.length, spoken: $0.spoken)
        }
    }

    /// espeak-ng phoneme input for an IPA transcription, or the reason it cannot be expressed.
    public static func spoken(fromIPA ipa: String) -> Swift.Result<String, PronunciationProblem> {
        let converted = IPATranscription.espeak(fromIPA: ipa)
        guard let phonemes = converted.phonemes, converted.unsupported.isEmpty, !phonemes.isEmpty else {
            let symbols = converted.unsupported.isEmpty ? "no phonemes" : "no espeak-ng equivalent for \(converted.unsupported.joined(separator: " "))"
            return .failure(PronunciationProblem("IPA /\(ipa)/: \(symbols)"))
        }
        return .success("[[\(phonemes)]]")
    }
}

/// Why a pronunciation hint cannot be honoured.
public struct PronunciationProblem: Error, Sendable, Equatable {
    public var reason: String
    /// True when the hint itself is malformed (an error in a file the user wrote), false when it
    /// is well-formed but espeak-ng has no way to say it (reported, not fatal).
    public var isMalformed: Bool

    public init(_ reason: String, isMalformed: Bool = false) {
        self.reason = reason
        self.isMalformed = isMalformed
    }
}

/// A pronunciation hint (lexicon entry, `ssml:ph`) that espeak-ng cannot express: the text is
/// read as written, and the hint is reported (by `lectern check`, `lectern run` and the sidecar).
public struct PronunciationNote: Sendable, Equatable, Codable {
    /// Where the hint is: a lexicon file, or a document and its element.
    public var source: String
    /// The word or text the hint is for.
    public var text: String
    public var reason: String

    public init(source: String, text: String, reason: String) {
        self.source = source
        self.text = text
        self.reason = reason
    }
}
