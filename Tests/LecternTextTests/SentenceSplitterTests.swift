import Testing
import LecternText

/// The sentences of `text` as strings, cut out by their UTF-16 ranges.
private func sentences(_ text: String) -> [String] {
    let utf16 = Array(text.utf16)
    return SentenceSplitter.sentences(in: text).map { String(decoding: utf16[$0], as: UTF16.self) }
}

@Suite struct SentenceSplitterTests {
    @Test func fullStopsQuestionAndExclamationMarksEndSentences() {
        #expect(sentences("Really? Yes! It is.") == ["Really?", "Yes!", "It is."])
        #expect(SentenceSplitter.sentences(in: "Really? Yes! It is.") == [0..<7, 8..<12, 13..<19])
    }

    @Test func titlesSuchAsMrAndDrDoNotEndASentence() {
        #expect(sentences("Mr. Smith went home. He slept.") == ["Mr. Smith went home.", "He slept."])
        #expect(sentences("Dr. Who met Mrs. Hudson. They talked.") == ["Dr. Who met Mrs. Hudson.", "They talked."])
        #expect(sentences("They met at St. Paul's. It rained.") == ["They met at St. Paul's.", "It rained."])
    }

    @Test func singleCapitalInitialsDoNotEndASentence() {
        #expect(sentences("J. R. R. Tolkien wrote it. Then he slept.") == ["J. R. R. Tolkien wrote it.", "Then he slept."])
    }

    @Test func anOrdinaryWordBeforeAFullStopAndACapitalEndsTheSentence() {
        // "Smith" is not an abbreviation, so the full stop ends a sentence.
        #expect(sentences("I saw Smith. Mr. Jones saw me.") == ["I saw Smith.", "Mr. Jones saw me."])
    }

    @Test func closingQuotesAfterTheFullStopBelongToTheSentence() {
        #expect(sentences("He said \"Stop.\" Then he left.") == ["He said \"Stop.\"", "Then he left."])
        #expect(sentences("She asked, \u{201C}Why?\u{201D} Nobody knew.") == ["She asked, \u{201C}Why?\u{201D}", "Nobody knew."])
        #expect(sentences("(It was late.) We went home.") == ["(It was late.)", "We went home."])
        #expect(sentences("It was 'over.' Done.") == ["It was 'over.'", "Done."])
    }

    @Test func aLowercaseWordAfterTheFullStopContinuesTheSentence() {
        #expect(sentences("He said wait. and then left. Done.") == ["He said wait. and then left.", "Done."])
        #expect(sentences("\"Oh!\" said Alice. It was dark.") == ["\"Oh!\" said Alice.", "It was dark."])
    }

    @Test func aFullStopNotFollowedBySpaceIsNotASentenceEnd() {
        #expect(sentences("It cost 3.50 today. See example.com now.") == ["It cost 3.50 today.", "See example.com now."])
    }

    @Test func repeatedMarksAndEllipsesStayTogether() {
        #expect(sentences("What?! Wait... Yes.") == ["What?!", "Wait...", "Yes."])
        #expect(sentences("Well\u{2026} Maybe.") == ["Well\u{2026}", "Maybe."])
    }

    @Test func textWithoutAFinalMarkIsOneSentenceAndWhitespaceIsTrimmed() {
        #expect(SentenceSplitter.sentences(in: "no full stop here") == [0..<17])
        #expect(SentenceSplitter.sentences(in: "  Hi there.  ") == [2..<11])
        #expect(SentenceSplitter.sentences(in: "").isEmpty)
        #expect(SentenceSplitter.sentences(in: "   ").isEmpty)
    }

    @Test func rangesAreUTF16OffsetsPastEmojiAndAstralCharacters() {
        // The emoji takes two UTF-16 units, so the second sentence starts at 7, not 6.
        let text = "Hi \u{1F600}. Bye."
        #expect(SentenceSplitter.sentences(in: text) == [0..<6, 7..<11])
        #expect(sentences(text) == ["Hi \u{1F600}.", "Bye."])
    }

    @Test func sentencesCoverEveryWordOfTheText() {
        let text = "Mr. and Mrs. Dursley, of number four, Privet Drive, were proud. They were \"normal,\" thank you! Very much?"
        let ranges = SentenceSplitter.sentences(in: text)
        #expect(ranges.count == 3)
        for token in WordTokenizer.tokens(in: text) {
            #expect(ranges.contains { $0.contains(token.start) && token.end <= $0.upperBound })
        }
        // Ranges are in order and do not overlap.
        for (a, b) in zip(ranges, ranges.dropFirst()) { #expect(a.upperBound < b.lowerBound) }
    }
}
