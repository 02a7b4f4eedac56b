/// A piece's title in a plain text that sets its pieces apart by a wide gap: a short line after
/// three blank lines or more (as Project Gutenberg's texts set a song's or a poem's title, where
/// no heading word or number marks it), with the piece's text after it, past at most
/// ``shortBlocks`` short lines (its credits — `As sung in …`, `Words by Whittier.`, `Music by
/// G.W. Clark.`, `Copyright, 1887 …` —, a byline, a `[Music]` mark, or a rhyme's first verses,
/// each a line of its own).
/// Only in a book that has no heading of another kind (``StructureScanner``'s fallback), where
/// the title may be in lower case (`The Slave Boy's Wish.`, `How long! O! how long!`). The piece's
/// source in parentheses may stand over the title after the gap, a line of its own (`(From the
/// Globe.)` / `The Ballot.`): the title still opens the piece.
enum GapTitle {
    /// The blank lines a title stands after, at least.
    static let gap = 3
    /// Short lines right under a heading that are its credits, at most (``StructureScanner``).
    static let creditLines = 2
    /// Blocks of one short line each between a title and its running text, at most.
    static let shortBlocks = 6

    /// Whether line `i` (alone in its block, ending at `end`) is such a title.
    static func opens(at i: Int, end: Int, in lines: [String], limit: Int) -> Bool {
        // (The source line over the title: one blank line under it, the gap above it.)
        let top = i >= 2 && TextLines.isBlank(lines[i - 1]) && isSourceLine(TextLines.trim(lines[i - 2])) ? i - 2 : i
        guard end == i + 1, top >= gap, (top - gap..<top).allSatisfy({ TextLines.isBlank(lines[$0]) }) else { return false }
        let t = TextLines.trim(lines[i])
        guard isTitle(t) else { return false }
        return textFollows(after: end, in: lines, limit: limit)
    }

    /// A piece's source set in parentheses on a line of its own over its title: `(From the Globe.)`.
    static func isSourceLine(_ t: String) -> Bool {
        t.hasPrefix("(") && t.hasSuffix(")") && t.count <= 60 && !t.dropFirst().dropLast().contains { "()".contains($0) }
    }

    /// A short line that can title a piece: capitalised, no more than eight words, not going on
    /// (a comma, a colon or a dash at its end: `NEW-YORK:` over a title page's imprint), not a
    /// bracketed mark, not a byline.
    static func isTitle(_ t: String) -> Bool {
        guard let first = t.first, first.isUppercase, t.count <= 60, TextLines.words(t).count <= 8,
              let last = t.last, !",;:-–—".contains(last), !FrontMatter.byline.matches(t) else { return false }
        return HeadingCandidate.isTitleLike([t]) || ".!?".contains(last)
    }

    /// Whether running text (a block of two lines or more, or a long one, not an imprint) follows the line before
    /// `end`, past at most ``shortBlocks`` blocks of one short line each.
    static func textFollows(after end: Int, in lines: [String], limit: Int) -> Bool {
        var k = end
        for _ in 0...shortBlocks {
            let blockEnd = k
            while k < limit, TextLines.isBlank(lines[k]) { k += 1 }
            // A wide gap again: the next piece's title.
            guard k < limit, k - blockEnd < gap else { return false }
            var e = k + 1
            while e < limit, !TextLines.isBlank(lines[e]) { e += 1 }
            // A cast list's title (`CHARACTERS.`): a play's title page, whose cast is no piece's text.
            if CastList.title.matches(TextLines.trim(lines[k])) { return false }
            // (A publisher's imprint, `Published by` / `DeLONG RICE & COMPANY.`, is the title page's, not text.)
            if e - k >= 2 || TextLines.trim(lines[k]).count >= 60,
               !FrontMatter.imprint.matches(lines[k..<e].joined(separator: " ")) { return true }
            k = e
        }
        return false
    }
}
