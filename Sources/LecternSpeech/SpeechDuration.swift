import LecternCore

/// How long the engine speaks an utterance, estimated from its spoken text without synthesis
/// (`lectern check`'s duration): cheap enough for a whole book in a fraction of a second.
///
/// The time espeak-ng takes follows what it says, not the word count: its `espeakRATE` is a
/// nominal words per minute, and it speaks the short words of a novel's dialogue faster than
/// that (Alice at 175 wpm: about 205 words a minute) and the long words of an essay slower. So
/// the estimate counts, in ``Utterance/spokenText`` (the text after spoken forms and
/// pronunciations, as the engine is given it):
///
/// - letters (``secondsPerLetter``), words (``secondsPerWord``) and digits (``secondsPerDigit``:
///   espeak-ng reads a digit left in the text as a number word or more);
/// - the pauses espeak-ng makes inside the text: after a comma (``commaPause``), a sentence's end
///   (``sentencePause``) and a colon, semicolon or dash (``clausePause``). Punctuation at the very
///   end makes no pause: the audio is trimmed to its speech (`SilenceTrimmer`) before the
///   utterance's own pauses are added;
/// - ``perUtterance``, the rest of an utterance's speech (its first and last phonemes).
///
/// The constants are for espeak-ng at 175 wpm and are scaled by ``rateScale(_:)``. They were fit
/// by least squares on the trimmed speech of 8 corpus renders (585 utterances; Alice, the
/// essays, Jack Sheppard (HTML), the Mostly Adequate Guide, News from Nowhere, Mind the Paint
/// Girl (text), Pride and Prejudice (text), Alice at rate 0.35) and verified on 8 others
/// (Alice at 0.65, the children's literature EPUB, Frankenstein, Jack Sheppard (text), Moby-Dick,
/// Mind the Paint Girl (HTML), Pride and Prejudice (HTML), Sherlock Holmes): every book's
/// estimate within 4.5 % of its rendered length (docs/BENCHMARKS.md, "Issue #24, item 8").
///
/// A Piper voice (en_US-joe-medium) speaks the same text in about 0.85 of espeak-ng's time at
/// 175 wpm, and its length scale (set from the rate) changes its pace less than the rate says:
/// ``piperRateCorrection``, measured on 7 Piper renders (Pride and Prejudice's chapters II and III,
/// the latter at rates 0.35, 0.5 and 0.65, Moby-Dick's Sunset, Frankenstein's Letter 3, Mind the
/// Paint Girl's first act): each within 5 % at 147–258 wpm; outside those rates it is extrapolated.
public enum SpeechDuration {
    /// Seconds per letter of the spoken text, at 175 wpm.
    public static let secondsPerLetter = 0.0535
    /// Seconds per word (a run of letters, with inner apostrophes), beyond its letters.
    public static let secondsPerWord = 0.0289
    /// Seconds per digit.
    public static let secondsPerDigit = 0.278
    /// The pause after a comma inside the text.
    public static let commaPause = 0.229
    /// The pause after a sentence's end (`.`, `!`, `?`) inside the text.
    public static let sentencePause = 0.461
    /// The pause after a colon, semicolon or dash inside the text.
    public static let clausePause = 0.205
    /// The time every utterance takes beyond its words.
    public static let perUtterance = 0.207

    /// espeak-ng's length at each rate relative to 175/wpm, measured on Alice's chapter II at
    /// rates 0.1 … 1.0: slower than the rate says below 175 wpm, faster above it (and from 450 on
    /// the engine is held at 449, ``EspeakEngine/fastestExactRate``).
    static let rateCorrection: [(wpm: Double, factor: Double)] = [
        (99, 1.032), (118, 1.021), (137, 1.014), (156, 1.009), (175, 1.0),
        (230, 0.979), (285, 0.964), (340, 0.929), (395, 0.921), (449, 0.927),
    ]

    /// A Piper voice's length relative to the estimate for espeak-ng at 175 wpm scaled by 175/wpm,
    /// measured at three rates and extended linearly beyond them (within 0.5 … 1.2).
    static let piperRateCorrection: [(wpm: Double, factor: Double)] = [(147, 0.773), (175, 0.852), (258, 0.925)]

    /// The estimated speaking time of `utterance`, without its pre- and post-utterance delays.
    /// Text another voice speaks (``Utterance/segments``) is timed at that voice's rate.
    public static func seconds(_ utterance: Utterance) -> Double {
        let scale = rateScale(utterance.voice)
        var total = scale * unscaledSeconds(Counts(utterance.spokenText))
        guard !utterance.segments.isEmpty else { return total }
        let units = Array(utterance.text.utf16)
        for segment in utterance.segments {
            let start = min(max(segment.offset, 0), units.count), end = min(units.count, start + max(segment.length, 0))
            let counts = Counts(String(decoding: units[start..<end], as: UTF16.self))
            total += (rateScale(segment.voice) - scale) * (unscaledSeconds(counts) - perUtterance)
        }
        return total
    }

    /// The estimated speaking time of `text` as one utterance read with `voice`.
    public static func seconds(of text: String, voice: ResolvedVoice) -> Double {
        rateScale(voice) * unscaledSeconds(Counts(text))
    }

    /// How much longer than at 175 wpm the voice speaks.
    public static func rateScale(_ voice: ResolvedVoice) -> Double {
        if voice.isPiper {
            let wpm = Double(max(voice.wordsPerMinute, 1))
            return Double(ResolvedVoice.normalWPM) / wpm * min(max(interpolate(piperRateCorrection, wpm, extending: true), 0.5), 1.2)
        }
        let wpm = Double(min(max(voice.wordsPerMinute, 1), EspeakEngine.fastestExactRate))
        return Double(ResolvedVoice.normalWPM) / wpm * interpolate(rateCorrection, wpm)
    }

    /// The table's factor at `wpm`, linear between its rows; beyond its ends the end's factor, or
    /// the line through the two rows there when `extending`.
    static func interpolate(_ table: [(wpm: Double, factor: Double)], _ wpm: Double, extending: Bool = false) -> Double {
        func line(_ a: (wpm: Double, factor: Double), _ b: (wpm: Double, factor: Double)) -> Double {
            a.factor + (b.factor - a.factor) * (wpm - a.wpm) / (b.wpm - a.wpm)
        }
        if wpm <= table[0].wpm { return extending ? line(table[0], table[1]) : table[0].factor }
        for (a, b) in zip(table, table.dropFirst()) where wpm <= b.wpm { return line(a, b) }
        return extending ? line(table[table.count - 2], table[table.count - 1]) : table[table.count - 1].factor
    }

    static func unscaledSeconds(_ c: Counts) -> Double {
        perUtterance + secondsPerLetter * Double(c.letters) + secondsPerWord * Double(c.words) + secondsPerDigit * Double(c.digits)
            + commaPause * Double(c.commas) + sentencePause * Double(c.sentenceEnds) + clausePause * Double(c.clauses)
    }

    /// What the estimate counts in a text.
    struct Counts: Equatable {
        var letters = 0, words = 0, digits = 0, commas = 0, sentenceEnds = 0, clauses = 0

        /// Closing marks after a sentence's end.
        private static let closers: Set<Character> = ["\"", "”", "’", "'", ")", "]", "»"]
        /// Punctuation at the text's end, which makes no pause (trimmed with the silence after it).
        private static let final: Set<Character> = [".", "!", "?", ";", ":", ",", "—", "–", "-", "…"]

        init(_ text: String) {
            var chars = Array(text)
            // Speech ends at the last word: what follows it is trimmed away.
            while let last = chars.last, last.isWhitespace || Self.closers.contains(last) { chars.removeLast() }
            while let last = chars.last, Self.final.contains(last) { chars.removeLast() }
            var i = 0
            var inWord = false
            while i < chars.count {
                let c = chars[i]
                if c.isLetter {
                    letters += 1
                    if !inWord { words += 1 }
                    inWord = true
                    i += 1
                    continue
                }
                // An apostrophe between letters (don't, o'clock) keeps the word going.
                if inWord, c == "'" || c == "’", i + 1 < chars.count, chars[i + 1].isLetter {
                    i += 1
                    continue
                }
                inWord = false
                if c.isNumber {
                    digits += 1
                } else if c == "," {
                    commas += 1
                } else if c == ";" || c == ":" || c == "—" || c == "–" {
                    clauses += 1
                } else if c == "-", i + 1 < chars.count, chars[i + 1] == "-" {
                    clauses += 1
                    while i + 1 < chars.count, chars[i + 1] == "-" { i += 1 }
                } else if c == "." || c == "!" || c == "?" {
                    while i + 1 < chars.count, ".!?".contains(chars[i + 1]) { i += 1 }
                    if i + 1 < chars.count, chars[i + 1].isWhitespace || Self.closers.contains(chars[i + 1]) { sentenceEnds += 1 }
                }
                i += 1
            }
        }
    }
}
