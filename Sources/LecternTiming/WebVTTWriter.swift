/// The WebVTT export (`NAME.vtt`): a cue per sentence, with a timestamp tag before each word
/// after the first, for word-by-word highlighting in any player that shows a text track.
///
/// Valid per the W3C WebVTT spec: cue start times strictly increase (a sentence that would start
/// with or before the previous one is moved 1 ms later); each cue ends after it starts; every
/// timestamp tag lies strictly between its cue's start and end and strictly after the tag before
/// it (a word starting no later than the previous tag gets none); `&`, `<` and `>` are escaped;
/// a chapter starts with a `NOTE` (naming its part first when it has one). Cue ids are `c<chapter>-p<paragraph>-s<sentence>` (1-based),
/// and long sentences are broken into lines of at most ``lineWidth`` characters.
public enum WebVTTWriter {
    public static let lineWidth = 64

    public static func render(_ document: TimingDocument) -> String {
        var out = "WEBVTT\n\n"
        var lastStart = -1
        for chapter in document.chapters {
            let part = chapter.part.map { noteText($0) + ", " } ?? ""
            out += "NOTE \(part)Chapter \(chapter.number): \(noteText(chapter.title))\n\n"
            for (p, paragraph) in chapter.paragraphs.enumerated() {
                for (s, sentence) in paragraph.sentences.enumerated() {
                    let words = CueText.words(of: sentence, in: paragraph.text)
                    guard !words.isEmpty else { continue }
                    let start = max(sentence.start, lastStart + 1)
                    let end = max(sentence.end, start + 1)
                    lastStart = start
                    out += "c\(chapter.number)-p\(p + 1)-s\(s + 1)\n"
                    out += CueText.clock(start, separator: ".") + " --> " + CueText.clock(end, separator: ".") + "\n"
                    var lastTag = start
                    let lines = CueText.lines(words, width: lineWidth).map { line in
                        line.map { word -> String in
                            var piece = ""
                            if word.start > lastTag, word.start < end {
                                piece = "<" + CueText.clock(word.start, separator: ".") + ">"
                                lastTag = word.start
                            }
                            return piece + escape(word.text)
                        }.joined(separator: " ")
                    }
                    out += lines.joined(separator: "\n") + "\n\n"
                }
            }
        }
        return out
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
