import Foundation

/// Line numbers printed in the margin of a school or critical edition and kept by its transcription at
/// the start of every fifth line: `[5]  dentro de los coches…`, `[10] nombre, como…`. They look like
/// footnote labels, but a book numbers its lines when such labels are nearly all multiples of five and
/// most of them fall inside a paragraph (the line before is text, not a blank). Then none of them opens
/// a note: the number stays in its line and is silent there, a marker like any other bracketed number.
enum MarginLineNumbers {
    static let label = LinePattern(#"^\[(\d{1,3})\]\s+\S"#)

    /// Whether the lines before `limit` number their lines in the margin.
    static func present(in lines: [String], limit: Int) -> Bool {
        var labels = 0
        var fives = 0
        var inside = 0
        for i in 0..<min(limit, lines.count) {
            let line = lines[i]
            guard line.utf8.first == UInt8(ascii: "["), let n = label.capture(1, in: line).flatMap({ Int($0) }) else { continue }
            labels += 1
            if n % 5 == 0 { fives += 1 }
            if i > 0, !TextLines.isBlank(lines[i - 1]) { inside += 1 }
        }
        return labels >= 12 && fives * 10 >= labels * 9 && inside * 2 >= labels
    }
}
