/// Cuts a stretch of text too long to synthesize at once into pieces of bounded length, each
/// ending at the best boundary available.
///
/// A piece holds at most `maximumWords` words (as ``WordTokenizer`` counts them, by where they
/// start) and `maximumLength` UTF-16 code units. It ends, in order of preference, after a
/// sentence (`.`, `!`, `?`, `…` before a space, whatever the case of the next word; `。`, `！`,
/// `？`), a clause (`;`, `:` before a space, a dash), a comma (`,` before a space; `、`, `，`),
/// a word (before a space), and, when the text offers none of these, at a fixed length (on a
/// grapheme boundary, else on a scalar boundary when one grapheme is longer than the limit).
/// A boundary is taken only in the second half of the room a piece has, so pieces are never
/// much shorter than the limits allow, and never inside an unbreakable range (a stretch read
/// through a pronunciation).
///
/// Pieces are in order and cover every non-space character of the stretch; spaces between them
/// belong to none. A word cut at a fixed length starts in one piece and goes on in the next.
/// The work is linear in the length of the stretch.
public enum PhraseSplitter {
    /// What ends a piece, from the strongest boundary to the weakest.
    public enum Boundary: Int, Sendable, Comparable, CaseIterable {
        case sentence, clause, comma, word, length

        public static func < (a: Boundary, b: Boundary) -> Bool { a.rawValue < b.rawValue }
    }

    /// A piece: its UTF-16 range in the text and what ends it (the last piece ends with the
    /// stretch: `.sentence`).
    public struct Piece: Sendable, Equatable {
        public var range: Range<Int>
        public var boundary: Boundary

        public init(range: Range<Int>, boundary: Boundary) {
            self.range = range
            self.boundary = boundary
        }
    }

    /// The pieces of `units[range]`; one piece (the range without surrounding spaces) when it
    /// is within the limits.
    ///
    /// - parameters:
    ///     - unbreakable: Ranges no piece may end inside, sorted, not overlapping (a fixed-length
    ///       cut, the last resort, may still fall inside one longer than `maximumLength`).
    public static func pieces(_ units: [UInt16], in range: Range<Int>, maximumWords: Int, maximumLength: Int,
                              unbreakable: [Range<Int>] = []) -> [Piece] {
        precondition(maximumWords > 0 && maximumLength > 1)
        let text = String(decoding: units[range], as: UTF16.self)
        let starts = WordTokenizer.tokens(in: text).map { $0.start + range.lowerBound }
        var pieces: [Piece] = []
        var start = skipSpaces(units, from: range.lowerBound, to: range.upperBound)
        var k = 0  // the first word starting at or after `start`
        var guardIndex = 0  // the first unbreakable range ending after `start`
        while start < range.upperBound {
            while k < starts.count, starts[k] < start { k += 1 }
            var end = min(range.upperBound, start + maximumLength)
            if k + maximumWords < starts.count { end = min(end, starts[k + maximumWords]) }
            if end >= range.upperBound {
                pieces.append(Piece(range: start..<trimmedEnd(units, start, range.upperBound), boundary: .sentence))
                break
            }
            while guardIndex < unbreakable.count, unbreakable[guardIndex].upperBound <= start { guardIndex += 1 }
            let (cut, boundary) = bestCut(units, start: start, end: end, limit: range.upperBound,
                                          unbreakable: unbreakable[guardIndex...])
            pieces.append(Piece(range: start..<trimmedEnd(units, start, cut), boundary: boundary))
            start = skipSpaces(units, from: cut, to: range.upperBound)
        }
        return pieces
    }

    /// Where the piece from `start` ends, at most at `end` (< `limit`, the stretch's end).
    static func bestCut(_ units: [UInt16], start: Int, end: Int, limit: Int,
                        unbreakable: ArraySlice<Range<Int>>) -> (Int, Boundary) {
        let low = start + max(1, (end - start) / 2)
        func breakable(_ p: Int) -> Bool {
            // The ranges are sorted: only those starting before p can hold it.
            for r in unbreakable {
                if r.lowerBound >= p { return true }
                if p < r.upperBound { return false }
            }
            return true
        }
        // One pass from the end: the last place of each kind; a full stop ends the search.
        var last: [Int?] = [nil, nil, nil, nil]
        var p = end
        while p >= low {
            if let boundary = strongestCut(units, at: p, start: start), last[boundary.rawValue] == nil, breakable(p) {
                last[boundary.rawValue] = p
                if boundary == .sentence { break }
            }
            p -= 1
        }
        // A place of a strong kind is also one of every weaker kind, so the strongest kind found
        // has its last place recorded.
        if let kind = last.firstIndex(where: { $0 != nil }), let place = last[kind] {
            return (place, Boundary(rawValue: kind)!)
        }
        return (lengthCut(units, start: start, end: end, limit: limit), .length)
    }

    /// The strongest boundary a piece ending at `p` (the next starting at or after it) would end
    /// at, or nil when it cannot end there.
    static func strongestCut(_ units: [UInt16], at p: Int, start: Int) -> Boundary? {
        guard p > start, p < units.count else { return nil }
        let before = units[p - 1]
        switch before {
        case 0x3002, 0xFF01, 0xFF1F: return .sentence  // 。！？
        case 0x2014, 0x2013, 0x2015: return .clause  // — – ―
        case 0x3001, 0xFF0C: return .comma  // 、，
        default: break
        }
        guard isSpace(units[p]), !isSpace(before) else { return nil }
        // The mark before `p`, looking through closing quotes and brackets.
        var q = p - 1
        while q > start, isCloser(units[q]) { q -= 1 }
        switch units[q] {
        case 0x2E, 0x21, 0x3F, 0x2026: return .sentence
        case 0x3B, 0x3A: return .clause
        case 0x2C: return .comma
        default: return .word
        }
    }

    /// What ends the text of `range` (after its spaces and closing quotes and brackets): a full
    /// stop, a clause's mark or dash, a comma, or a word (``Boundary/word``).
    public static func boundary(ending range: Range<Int>, in units: [UInt16]) -> Boundary {
        var q = trimmedEnd(units, range.lowerBound, range.upperBound) - 1
        while q > range.lowerBound, isCloser(units[q]) || units[q] == 0x201C || units[q] == 0x2018 { q -= 1 }
        guard q >= range.lowerBound else { return .word }
        switch units[q] {
        case 0x2E, 0x21, 0x3F, 0x2026, 0x3002, 0xFF01, 0xFF1F: return .sentence
        case 0x3B, 0x3A, 0x2014, 0x2013, 0x2015: return .clause
        case 0x2C, 0x3001, 0xFF0C: return .comma
        default: return .word
        }
    }

    /// The last grapheme boundary in (start, end]; the last scalar boundary when a single
    /// grapheme runs past `end`.
    static func lengthCut(_ units: [UInt16], start: Int, end: Int, limit: Int) -> Int {
        // A little beyond `end`, so that the grapheme ending at `end` is seen whole.
        let windowEnd = min(limit, end + 64)
        var offset = start, best = start
        for character in String(decoding: units[start..<windowEnd], as: UTF16.self) {
            let next = offset + character.utf16.count
            if next > end || (next == windowEnd && windowEnd < limit) { break }
            best = next
            offset = next
        }
        if best > start { return best }
        var p = end
        if p - 1 > start, UTF16.isLeadSurrogate(units[p - 1]) { p -= 1 }
        return p
    }

    static func skipSpaces(_ units: [UInt16], from: Int, to: Int) -> Int {
        var i = from
        while i < to, isSpace(units[i]) { i += 1 }
        return i
    }

    static func trimmedEnd(_ units: [UInt16], _ start: Int, _ end: Int) -> Int {
        var e = end
        while e > start, isSpace(units[e - 1]) { e -= 1 }
        return e
    }

    static func isSpace(_ u: UInt16) -> Bool {
        u == 0x20 || (u >= 0x09 && u <= 0x0D) || u == 0xA0 || u == 0x3000 || (u >= 0x2000 && u <= 0x200A) || u == 0x2028 || u == 0x2029
    }

    static func isCloser(_ u: UInt16) -> Bool {
        switch u {
        case 0x22, 0x27, 0x29, 0x5D, 0x201D, 0x2019, 0xBB, 0x5F, 0x2A: true
        default: false
        }
    }
}
