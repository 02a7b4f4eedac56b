import Foundation
import LecternCore

/// An EPUB 3 media overlay (a SMIL 3.0 document) for one content document: which element of the
/// text is spoken during which clip of which audio file, nested chapter → paragraph → sentence →
/// word.
///
/// Each paragraph is a `seq` (`epub:type="z3998:paragraph"`) of sentence `seq`s
/// (`z3998:sentence`) whose `par`s are the words (`z3998:word`), when every word of the sentence
/// has an element; otherwise the sentence is one `par` (pointing at the sentence's element, or the
/// paragraph's). A word's clip starts where the sidecar says the word starts and runs to the start
/// of the next clip in the same audio file, so playback keeps the narration's pauses and every
/// clip begins exactly at its speech; the last clip of an audio file ends where its paragraph's
/// speech ends.
public struct MediaOverlay: Sendable {
    /// A narrated paragraph: where its text is marked and where its audio is.
    public struct Paragraph: Sendable {
        /// The id of the paragraph's element in the content document.
        public var id: String
        /// Each sentence's element id and its words' (nil where the text has none).
        public var sentences: [Sentence]
        public var timing: ParagraphTiming
        /// The audio file, relative to the overlay.
        public var audio: String
        /// Where that audio file starts on the book's timeline, and its decoded length, in milliseconds.
        public var audioStartMs: Double
        public var audioLengthMs: Double

        public init(id: String, sentences: [Sentence], timing: ParagraphTiming, audio: String, audioStartMs: Double, audioLengthMs: Double) {
            self.id = id
            self.sentences = sentences
            self.timing = timing
            self.audio = audio
            self.audioStartMs = audioStartMs
            self.audioLengthMs = audioLengthMs
        }
    }

    /// A sentence's element id and its words' ids, in the sidecar's order.
    public struct Sentence: Sendable, Equatable {
        public var id: String?
        public var words: [String?]
        public init(id: String?, words: [String?]) {
            self.id = id
            self.words = words
        }
    }

    /// The content document, relative to the overlay.
    public var text: String
    /// The paragraphs in the order they are spoken.
    public var paragraphs: [Paragraph]

    public init(text: String, paragraphs: [Paragraph]) {
        self.text = text
        self.paragraphs = paragraphs
    }

    /// One `par`: the element it highlights and its clip on the book's timeline (ms).
    struct Clip {
        var target: String
        var kind: String
        var audio: String
        var audioStartMs: Double
        var audioLengthMs: Double
        var begin: Int
        var end: Int
    }

    /// The clips, grouped as they nest: paragraphs, then sentences.
    func clips() -> [[[Clip]]] {
        var groups: [[[Clip]]] = paragraphs.map { p in
            zip(p.timing.sentences, p.sentences).map { timing, marks -> [Clip] in
                let clip = { (target: String, kind: String, begin: Int, end: Int) in
                    Clip(target: target, kind: kind, audio: p.audio, audioStartMs: p.audioStartMs, audioLengthMs: p.audioLengthMs,
                         begin: begin, end: end)
                }
                let ids = marks.words.compactMap { $0 }
                if ids.count == timing.words.count, ids.count == marks.words.count, !ids.isEmpty {
                    return zip(timing.words, ids).map { clip($1, "z3998:word", $0.start, $0.end) }
                }
                return [clip(marks.id ?? p.id, "z3998:sentence", timing.start, timing.end)]
            }
        }
        // Each clip runs to the start of the next one in the same file; the last ends with its speech.
        var previous: (p: Int, s: Int, c: Int)?
        for p in groups.indices {
            for s in groups[p].indices {
                for c in groups[p][s].indices {
                    if let (pp, ps, pc) = previous, groups[pp][ps][pc].audio == groups[p][s][c].audio,
                       groups[p][s][c].begin > groups[pp][ps][pc].begin {
                        groups[pp][ps][pc].end = groups[p][s][c].begin
                    }
                    previous = (p, s, c)
                }
            }
        }
        return groups
    }

    /// The overlay's total clip time in milliseconds (its `media:duration`).
    public var durationMs: Int {
        clips().joined().joined().reduce(0) { total, clip in
            let (b, e) = Self.clipTimes(clip)
            return total + max(0, e - b)
        }
    }

    /// A clip's begin and end in its audio file (ms, rounded; never past the file's end, which
    /// the rounding of book times to milliseconds could otherwise overshoot by a fraction).
    static func clipTimes(_ clip: Clip) -> (Int, Int) {
        let last = Int(clip.audioLengthMs.rounded(.down))
        return (min(last, Int((Double(clip.begin) - clip.audioStartMs).rounded())),
                min(last, Int((Double(clip.end) - clip.audioStartMs).rounded())))
    }

    /// The SMIL document.
    public func smil() -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <smil xmlns="http://www.w3.org/ns/SMIL" xmlns:epub="http://www.idpf.org/2007/ops" version="3.0"
                  epub:prefix="z3998: http://www.daisy.org/z3998/2012/vocab/structure/#">
            <body>

            """
        let text = Self.escape(self.text)
        for (paragraph, sentences) in zip(paragraphs, clips()) {
            // A clip that rounds to nothing (a word spoken together with the next) gets no par; a
            // seq left with no par is left out, as SMIL wants at least one child.
            let kept = zip(paragraph.sentences, sentences).map { marks, clips in
                (marks, clips.filter { let (b, e) = Self.clipTimes($0); return e > b })
            }.filter { !$0.1.isEmpty }
            guard !kept.isEmpty else { continue }
            out += "<seq epub:textref=\"\(text)#\(Self.escape(paragraph.id))\" epub:type=\"z3998:paragraph\">\n"
            for (marks, clips) in kept {
                let nested = clips.count > 1 || clips.first?.kind == "z3998:word"
                if nested {
                    let target = Self.escape(marks.id ?? paragraph.id)
                    out += "<seq epub:textref=\"\(text)#\(target)\" epub:type=\"z3998:sentence\">\n"
                }
                for clip in clips {
                    let (begin, end) = Self.clipTimes(clip)
                    out += "<par epub:type=\"\(clip.kind)\"><text src=\"\(text)#\(Self.escape(clip.target))\"/>"
                        + "<audio src=\"\(Self.escape(clip.audio))\" clipBegin=\"\(Self.clock(begin))\" clipEnd=\"\(Self.clock(end))\"/></par>\n"
                }
                if nested { out += "</seq>\n" }
            }
            out += "</seq>\n"
        }
        out += "</body>\n</smil>\n"
        return out
    }

    /// A SMIL full clock value, `h:mm:ss.mmm`.
    public static func clock(_ ms: Int) -> String { EPUBValues.clock(ms) }

    /// Text escaped for XML content and double-quoted attributes.
    public static func escape(_ text: String) -> String {
        ReadAlongPage.escapeHTML(text)
    }
}
