extension DialogueQuotes {
    /// A quotation found in a paragraph: its range (marks included) and family.
    struct Quote {
        var range: Range<Int>
        var family: QuoteMarks.Family
    }

    /// One paragraph read left to right with a stack of open quotations; every quotation at the
    /// top level that closes lands in ``closed``, what is still open at the end stays in ``stack``.
    struct ParagraphScan {
        struct Open {
            var opener: UInt16
            var start: Int
            var family: QuoteMarks.Family
            /// Single quotes after a word that may have closed it (`dogs' dinner`), in order.
            var possibleClosers: [Int] = []
        }

        /// What a character next to a mark is.
        enum Side { case space, open, letter, punctuation, dash }

        let units: [UInt16]
        let marks: QuoteMarks
        var stack: [Open] = []
        var closed: [Quote] = []
        /// Single quotes read as apostrophes before a word written short (`'Tis`) that may have
        /// opened a quotation after all (`'Tis so,' said the Duchess`).
        var possibleOpeners: [Int] = []
        /// The marks that opened a quotation, so that the next mark knows what stands before it.
        var opened: Set<Int> = []
        /// The families of the marks read as quotation marks (not apostrophes).
        var marksOfFamily: Set<QuoteMarks.Family> = []
        /// A closing mark that nothing opened, before any mark opened a quotation (the end of a
        /// speech begun in an earlier paragraph).
        var leadingStray: Int?

        init(units: [UInt16], marks: QuoteMarks) {
            self.units = units
            self.marks = marks
        }

        mutating func run() {
            for i in units.indices where QuoteMarks.isMark(units[i]) { read(i) }
            // A quotation that a single quote after a word may have closed (`the Joneses' she
            // said`) closed at the last such quote.
            if let first = stack.first, let closer = first.possibleClosers.last {
                closed.append(Quote(range: first.start..<(closer + 1), family: first.family))
                stack.removeAll()
            }
        }

        func before(_ i: Int) -> Side {
            guard i > 0 else { return .space }
            let u = units[i - 1]
            if DialogueQuotes.isSpace(u) { return .space }
            if DialogueQuotes.isLetter(u) { return .letter }
            if DialogueQuotes.isDash(u) { return .dash }
            if DialogueQuotes.isOpeningBracket(u) || opened.contains(i - 1) { return .open }
            return .punctuation
        }

        func after(_ i: Int) -> Side {
            guard i + 1 < units.count else { return .space }
            let u = units[i + 1]
            if DialogueQuotes.isSpace(u) { return .space }
            if DialogueQuotes.isLetter(u) || DialogueQuotes.isOpeningBracket(u) { return .letter }
            // A hyphen joining words (`clothes'-bag`) is part of the word.
            if u == 0x2D, i + 2 < units.count, DialogueQuotes.isLetter(units[i + 2]) { return .letter }
            if DialogueQuotes.isDash(u) { return .dash }
            // Another mark after an opening one (`“‘Tis`) starts the words too.
            if QuoteMarks.isMark(u), before(i) == .space || before(i) == .open { return .letter }
            return .punctuation
        }

        /// The innermost open quotation that `unit` closes, by its index in the stack.
        func closing(_ unit: UInt16) -> Int? {
            stack.indices.last { marks.closes(unit, opener: stack[$0].opener) }
        }

        /// Notes a closing mark with nothing open.
        mutating func stray(_ i: Int) {
            if let family = QuoteMarks.family(units[i]) { marksOfFamily.insert(family) }
            if opened.isEmpty, closed.isEmpty, leadingStray == nil { leadingStray = i }
        }

        mutating func open(_ i: Int) {
            guard let family = QuoteMarks.family(units[i]) else { return }
            marksOfFamily.insert(family)
            stack.append(Open(opener: units[i], start: i, family: family))
            opened.insert(i)
        }

        mutating func close(_ index: Int, at i: Int) {
            if let family = QuoteMarks.family(units[i]) { marksOfFamily.insert(family) }
            if index == 0 { closed.append(Quote(range: stack[0].start..<(i + 1), family: stack[0].family)) }
            stack.removeSubrange(index...)
        }

        mutating func read(_ i: Int) {
            let unit = units[i]
            let b = before(i), a = after(i)
            let openingShape = (b == .space || b == .open || b == .dash) && a != .space
            let closingShape = (b == .letter || b == .punctuation || b == .dash) && a != .letter
            if QuoteMarks.mayBeApostrophe(unit), QuoteMarks.family(unit) == .single, readSingle(i, before: b, after: a,
                                                                                                 opening: openingShape, closing: closingShape) {
                return
            }
            if let index = closing(unit) {
                // A straight mark that opens a word (after a space, before a letter) opens a quotation
                // inside the one it would close (`"I tried to say "How doth," but`); otherwise it closes.
                let opensInstead = marks.symmetric.contains(unit) && openingShape && !closingShape
                if !opensInstead {
                    close(index, at: i)
                    return
                }
            }
            guard marks.opens(unit) else {
                if closingShape { stray(i) }
                return
            }
            if marks.symmetric.contains(unit), closingShape, !openingShape {  // a stray closing mark
                stray(i)
                return
            }
            if b == .letter, a == .letter { return }  // inside a word
            open(i)
        }

        /// Reads a single quote that may be an apostrophe; false when it is an ordinary mark.
        mutating func readSingle(_ i: Int, before b: Side, after a: Side, opening: Bool, closing closingShape: Bool) -> Bool {
            let unit = units[i]
            if b == .letter, a == .letter { return true }  // don't, o’clock
            if opening, a == .letter {
                // Before a word: a right single quote (’tis, ’98) or a word written short is an apostrophe.
                if unit == QuoteMarks.rightSingle, !marks.symmetric.contains(unit) { return true }
                // So is a single quote before a lower-case word inside a single quotation: speech
                // quotes inside itself with the other family.
                let insideSingle = stack.contains { $0.family == .single }
                    && Character(Unicode.Scalar(units[i + 1]) ?? " ").isLowercase
                if insideSingle || DialogueQuotes.isElidedStart(i, in: units) {
                    if !DialogueQuotes.isDigit(units[i + 1]) { possibleOpeners.append(i) }
                    return true
                }
                return false
            }
            guard closingShape else { return false }
            guard let index = closing(unit) else {
                // No single quotation is open: an apostrophe (dogs', runnin'), unless punctuation
                // stands before it and a word written short could have opened one.
                if b == .punctuation || b == .dash, let start = possibleOpeners.last, stack.allSatisfy({ $0.start < start }),
                   closed.last.map({ $0.range.upperBound <= start }) ?? true {
                    possibleOpeners.removeLast()
                    if stack.isEmpty {
                        closed.removeAll { $0.range.lowerBound > start }  // nested in it
                        closed.append(Quote(range: start..<(i + 1), family: .single))
                    }
                    return true
                }
                return b == .letter
            }
            if b == .letter, DialogueQuotes.mayBeElidedEnd(i, in: units) {
                stack[index].possibleClosers.append(i)
                return true
            }
            close(index, at: i)
            return true
        }
    }
}
