/// The SubRip export (`NAME.srt`): a cue per sentence, numbered from 1, at most two lines of
/// ``lineWidth`` characters each. A longer sentence is split into several cues at word
/// boundaries, preferring a break after punctuation, each cue timed by its own words.
public enum SRTWriter {
    public static let lineWidth = 42
    public static let linesPerCue = 2

    public static func render(_ document: TimingDocument) -> String {
        var out = ""
        var number = 0
        var lastStart = -1
        for chapter in document.chapters {
            for paragraph in chapter.paragraphs {
                for sentence in paragraph.sentences {
                    let parts = pieces(CueText.words(of: sentence, in: paragraph.text))
                    for (i, piece) in parts.enumerated() {
                        let last = i == parts.count - 1
                        let start = max(piece[0].start, lastStart + 1)
                        let end = max(last ? max(sentence.end, piece.last!.end) : piece.last!.end, start + 1)
                        lastStart = start
                        number += 1
                        out += "\(number)\n" + CueText.clock(start, separator: ",") + " --> " + CueText.clock(end, separator: ",") + "\n"
                        out += CueText.lines(piece, width: lineWidth).map { $0.map(\.text).joined(separator: " ") }.joined(separator: "\n")
                        out += "\n\n"
                    }
                }
            }
        }
        return out
    }

    /// The words cut into cues that fit ``linesPerCue`` lines: greedily, but ending a cue after a
    /// word with punctuation when one lies in the cue's second half.
    static func pieces(_ words: [CueText.Word]) -> [[CueText.Word]] {
        CueText.pieces(words, width: lineWidth, lines: linesPerCue)
    }
}
