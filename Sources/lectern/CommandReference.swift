import ArgumentParser

/// The README's command reference, generated from the commands' own definitions (the usage
/// ArgumentParser derives from their options, and each command's abstract), so that it cannot
/// drift from `lectern help`. `lectern docs` writes it between ``beginMarker`` and ``endMarker``.
enum CommandReference {
    static let beginMarker = "<!-- commands:begin (generated from the commands' definitions by `make docs`) -->"
    static let endMarker = "<!-- commands:end -->"

    /// Options every store-using command shares, left out of each usage line (said once below it).
    static let sharedOptions = ["[--store <url>]", "[--db <path>]", "[--chunks <dir>]"]

    /// The reference as a fenced block: each visible command's usage, then its abstract indented.
    static func text() -> String {
        var lines = ["```"]
        for command in Lectern.configuration.subcommands where command.configuration.shouldDisplay {
            var usage = Lectern.usageString(for: command)
            for option in sharedOptions { usage = usage.replacingOccurrences(of: " " + option, with: "") }
            lines += wrapped(usage, width: 100, indent: "        ")
            lines += wrapped(command.configuration.abstract, width: 100, indent: "    ").map { "    " + $0.drop { $0 == " " } }
        }
        lines += ["```", "", "Commands that use the job store also take `--store`, `--db` and `--chunks` (see FILES in `lectern(1)`)."]
        return lines.joined(separator: "\n")
    }

    /// `readme` with the reference between the markers replaced; nil when the markers are missing.
    static func updatingREADME(_ readme: String) -> String? {
        guard let begin = readme.range(of: beginMarker),
              let end = readme.range(of: endMarker, range: begin.upperBound..<readme.endIndex) else { return nil }
        return String(readme[..<begin.upperBound]) + "\n" + text() + "\n" + String(readme[end.lowerBound...])
    }

    /// `text` broken between words into lines of at most `width` characters (a bracketed option
    /// is one word), lines after the first indented.
    static func wrapped(_ text: String, width: Int, indent: String) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in words(of: text) {
            let prefix = lines.isEmpty ? "" : indent
            if !line.isEmpty, prefix.count + line.count + 1 + word.count > width {
                lines.append(prefix + line)
                line = word
            } else {
                line += (line.isEmpty ? "" : " ") + word
            }
        }
        if !line.isEmpty { lines.append((lines.isEmpty ? "" : indent) + line) }
        return lines
    }

    /// The words of `text`, a `[…]` group counted as one.
    static func words(of text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var depth = 0
        for character in text {
            if character == "[" { depth += 1 } else if character == "]" { depth -= 1 }
            if character.isWhitespace, depth == 0 {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else if !(character.isWhitespace && current.last == " ") {
                current.append(character.isWhitespace ? " " : character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}
