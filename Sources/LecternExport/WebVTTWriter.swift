import LecternCore

/// The WebVTT export (`NAME.vtt`), in one of two forms (manifest key `vtt:`):
/// - ``WebVTTCues/sentences`` (the default): a cue per sentence, for word-by-word highlighting
///   in any player that shows a text track; cue ids `c<chapter>-p<paragraph>-s<sentence>`
///   (1-based), long sentences broken into lines of at most ``lineWidth`` characters;
/// - ``WebVTTCues/captions``: captions a viewer can read — a sentence is cut into cues of at most
///   ``captionLines`` lines of ``captionWidth`` characters and ``captionDuration`` ms (from the
///   cue's first word's start to its last word's end), at word boundaries, preferring a sentence
///   or clause end in the cue's second half; the lines of a cue are as even as possible; cue ids
///   `c<chapter>-p<paragraph>-s<sentence>-<cue>`, each cue timed by its own words.
///
/// Both carry a timestamp tag before each word after the first, and are valid per the W3C WebVTT
/// spec: cue start times strictly increase (a cue that would start with or before the previous
/// one is moved 1 ms later); each cue ends after it starts; every timestamp tag lies strictly
/// between its cue's start and end and strictly after the tag before it (a word starting no
/// later than the previous tag gets none); `&`, `<` and `>` are escaped; a chapter starts with a
/// `NOTE` (naming its part first when it has one). A cue of a play's speech is one voice span,
/// `<v Lady Macbeth>…</v>`, naming its persona (the name escaped as an annotation: no `&`, `<`,
/// `>` or line break).
public enum WebVTTWriter {
    public static let lineWidth = 64
    public static let captionWidth = 42
    public static let captionLines = 2
    public static let captionDuration = 7000

    public static func render(_ document: TimingDocument, cues: WebVTTCues = .sentences) -> String {
        var out = "WEBVTT\n\n"
        var lastStart = -1
        for chapter in document.chapters {
            let part = chapter.part.map { noteText($0) + ", " } ?? ""
            out += "NOTE \(part)Chapter \(chapter.number): \(noteText(chapter.title))\n\n"
            for (p, paragraph) in chapter.paragraphs.enumerated() {
                for (s, sentence) in paragraph.sentences.enumerated() {
                    let words = CueText.words(of: sentence, in: paragraph.text)
                    guard !words.isEmpty else { continue }
                    let id = "c\(chapter.number)-p\(p + 1)-s\(s + 1)"
                    switch cues {
                    case .sentences:
                        let start = max(sentence.start, lastStart + 1)
                        out += cue(id: id, start: start, end: max(sentence.end, start + 1), lines: CueText.lines(words, width: lineWidth),
                                   voice: paragraph.persona)
                        lastStart = start
                    case .captions:
                        let pieces = CueText.pieces(words, width: captionWidth, lines: captionLines, maxDuration: captionDuration)
                        for (k, piece) in pieces.enumerated() {
                            let start = max(piece[0].start, lastStart + 1)
                            out += cue(id: "\(id)-\(k + 1)", start: start, end: max(piece.last!.end, start + 1),
                                       lines: CueText.balancedLines(piece, width: captionWidth), voice: paragraph.persona)
                            lastStart = start
                        }
                    }
                }
            }
        }
        return out
    }

    /// A cue: its id, its times, and its lines with a timestamp tag before each word that starts
    /// after the previous tag and before the cue's end.
    static func cue(id: String, start: Int, end: Int, lines: [[CueText.Word]], voice: String? = nil) -> String {
        var out = id + "\n" + CueText.clock(start, separator: ".") + " --> " + CueText.clock(end, separator: ".") + "\n"
        var lastTag = start
        let text = lines.map { line in
            line.map { word -> String in
                var piece = ""
                if word.start > lastTag, word.start < end {
                    piece = "<" + CueText.clock(word.start, separator: ".") + ">"
                    lastTag = word.start
                }
                return piece + escape(word.text)
            }.joined(separator: " ")
        }
        if let voice, !voice.isEmpty {
            out += "<v " + annotation(voice) + ">" + text.joined(separator: "\n") + "</v>\n\n"
        } else {
            out += text.joined(separator: "\n") + "\n\n"
        }
        return out
    }

    /// A voice span's annotation: escaped as cue text is, on one line, whitespace collapsed.
    static func annotation(_ name: String) -> String {
        escape(name.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " "))
    }

    static func escape(_ text: String) -> String {
        var s = ""
        for ch in text {
            switch ch {
            case "&": s += "&amp;"
            case "<": s += "&lt;"
            case ">": s += "&gt;"
            default: s.append(ch)
            }
        }
        return s
    }

    /// A NOTE's text must not contain "-->" and stays on one line.
    static func noteText(_ title: String) -> String {
        title.split(whereSeparator: { $0.isNewline }).joined(separator: " ").replacingOccurrences(of: "-->", with: "->")
    }
}
