import Foundation
import Testing
@testable import LecternText

/// The quoted-speech scanner on hand-written edge cases and on the corpus's novels: curly and
/// straight marks, both English conventions, nesting, speeches over paragraphs, apostrophes.
@Suite struct DialogueQuotesTests {
    /// `text` with each stretch of speech between ⟦ and ⟧.
    static func marked(_ text: String, _ ranges: [Range<Int>]) -> String {
        let units = Array(text.utf16)
        var out: [UInt16] = []
        var position = 0
        for r in ranges {
            out += units[position..<r.lowerBound] + Array("⟦".utf16) + units[r] + Array("⟧".utf16)
            position = r.upperBound
        }
        return String(decoding: out + units[position...], as: UTF16.self)
    }

    static let american = DialogueQuotes(language: "en", outer: .double)
    static let british = DialogueQuotes(language: "en", outer: .single)

    static func speech(_ text: String, _ scanner: DialogueQuotes = american) -> String { marked(text, scanner.speech(in: text)) }

    @Test func speechBetweenCurlyAndStraightDoubleQuotes() {
        #expect(Self.speech("“Hello,” said Alice, “how are you?”") == "⟦“Hello,”⟧ said Alice, ⟦“how are you?”⟧")
        #expect(Self.speech("\"Hello,\" said Alice, \"how are you?\"") == "⟦\"Hello,\"⟧ said Alice, ⟦\"how are you?\"⟧")
        #expect(Self.speech("No one spoke.") == "No one spoke.")
        // A quote inside speech stays speech, whichever marks it has.
        #expect(Self.speech("“I don’t know,” she said, “what ‘jam’ is.”") == "⟦“I don’t know,”⟧ she said, ⟦“what ‘jam’ is.”⟧")
        #expect(Self.speech("\"He said 'no,' and left,\" she said.") == "⟦\"He said 'no,' and left,\"⟧ she said.")
        #expect(Self.speech("“She said, “No,” twice,” he said.") == "⟦“She said, “No,” twice,”⟧ he said.")
    }

    @Test func theBritishConventionQuotesSpeechWithSingleMarks() {
        #expect(Self.speech("‘I don’t know,’ she said, ‘what “jam” is.’", Self.british) == "⟦‘I don’t know,’⟧ she said, ⟦‘what “jam” is.’⟧")
        #expect(Self.speech("'I don't know,' she said, 'what \"jam\" is.'", Self.british) == "⟦'I don't know,'⟧ she said, ⟦'what \"jam\" is.'⟧")
        // The other family at the top level is the narrator's (a title, a scare quote).
        #expect(Self.speech("He had read “Emma” twice.", Self.british) == "He had read “Emma” twice.")
        #expect(Self.speech("He had read ‘Emma’ twice.") == "He had read ‘Emma’ twice.")
    }

    @Test func theOuterMarksAreDecidedFromTheText() {
        let doubled = ["“Yes,” she said.", "“No.”", "He called it ‘fun’."]
        let singled = ["‘Yes,’ she said.", "‘No.’", "‘’Tis so,’ said the Duchess, ‘and “tis” is short.’", "'Em too."]
        #expect(DialogueQuotes(language: "en", sample: doubled).outer == .double)
        #expect(DialogueQuotes(language: "en", sample: singled).outer == .single)
        #expect(DialogueQuotes(language: "fr", sample: ["« Oui », dit-elle.", "« Non. »", "Un “mot”."]).outer == .guillemet)
        #expect(DialogueQuotes(language: "en", sample: []).outer == .double)
    }

    @Test func apostrophesAreNotQuotes() {
        let b = Self.british
        #expect(Self.speech("'I don't know what you mean,' said Alice.", b) == "⟦'I don't know what you mean,'⟧ said Alice.")
        #expect(Self.speech("‘’Tis so,’ said the Duchess.", b) == "⟦‘’Tis so,’⟧ said the Duchess.")
        // A word written short opening the speech: the mark was a quote after all.
        #expect(Self.speech("'Tis so,' said the Duchess.", b) == "⟦'Tis so,'⟧ said the Duchess.")
        #expect(Self.speech("'Twas brillig, and the toves did gyre.", b) == "'Twas brillig, and the toves did gyre.")
        #expect(Self.speech("We'll starve 'em out, and the dogs' dinner with 'em.", b) == "We'll starve 'em out, and the dogs' dinner with 'em.")
        #expect(Self.speech("'I saw the dogs' dinner,' he said.", b) == "⟦'I saw the dogs' dinner,'⟧ he said.")
        #expect(Self.speech("'It belongs to the Joneses' said she.", b) == "⟦'It belongs to the Joneses'⟧ said she.")
        #expect(Self.speech("'I was runnin', an' jumpin' o' course,' he said.", b) == "⟦'I was runnin', an' jumpin' o' course,'⟧ he said.")
        #expect(Self.speech("'They played rock 'n' roll in '98,' she said.", b) == "⟦'They played rock 'n' roll in '98,'⟧ she said.")
        #expect(Self.speech("‘They played rock ’n’ roll in ’98,’ she said.", b) == "⟦‘They played rock ’n’ roll in ’98,’⟧ she said.")
        #expect(Self.speech("The clothes'-bag was in the 'ouse, by the 'orse.", b) == "The clothes'-bag was in the 'ouse, by the 'orse.")
        // An unknown word written short with nothing to close it is an apostrophe too.
        #expect(Self.speech("He came from the 'ospital at last.", b) == "He came from the 'ospital at last.")
        #expect(Self.speech("“Don’t,” said the dogs’ master, “o’ course.”") == "⟦“Don’t,”⟧ said the dogs’ master, ⟦“o’ course.”⟧")
    }

    @Test func anUnclosedQuoteEndsWithItsParagraph() {
        let paragraphs: [String?] = ["“It was a dark night,” he began, “and the wind", "“howled.”", "She slept.",
                                     "“Then one day—", nil, "The end."]
        let found = Self.american.speech(in: paragraphs)
        #expect(Self.marked(paragraphs[0]!, found[0]) == "⟦“It was a dark night,”⟧ he began, ⟦“and the wind⟧")
        #expect(Self.marked(paragraphs[1]!, found[1]) == "⟦“howled.”⟧")
        #expect(found[2].isEmpty && found[4].isEmpty && found[5].isEmpty)
        #expect(Self.marked(paragraphs[3]!, found[3]) == "⟦“Then one day—⟧")
        // A letter quoted in a speech: the speech goes on through paragraphs without marks to the
        // closing mark nothing opened — but not through more than a few.
        let letter: [String?] = ["“And how odd the directions will look!", "Alice’s Right Foot, Esq.", "(with Alice’s love).",
                                 "Oh dear, what nonsense I’m talking!” she said.", "No marks here."]
        let carried = Self.american.speech(in: letter)
        #expect(zip(letter, carried).map { Self.marked($0!, $1) } == ["⟦“And how odd the directions will look!⟧", "⟦Alice’s Right Foot, Esq.⟧",
                                                                    "⟦(with Alice’s love).⟧", "⟦Oh dear, what nonsense I’m talking!”⟧ she said.", "No marks here."])
        let far: [String?] = ["“And then—"] + Array(repeating: "Nothing.", count: DialogueQuotes.carriedParagraphs) + ["Done,” she said."]
        #expect(Self.american.speech(in: far).dropFirst().allSatisfy { $0.isEmpty })
        let heading: [String?] = ["“And then—", nil, "Done,” she said."]
        #expect(Self.american.speech(in: heading)[2].isEmpty)
        // A stray closing mark opens nothing.
        #expect(Self.speech("He measured 5\" and said so.") == "He measured 5\" and said so.")
    }

    @Test func aMentionInsideASentenceIsNotSpeech() {
        #expect(Self.speech("He called it a “game” and left.") == "He called it a “game” and left.")
        #expect(Self.speech("It was labelled “DRINK ME” in large letters.") == "It was labelled “DRINK ME” in large letters.")
        #expect(Self.speech("She said: “No.”") == "She said: ⟦“No.”⟧")
    }

    @Test func otherLanguagesMarks() {
        let french = DialogueQuotes(language: "fr", outer: .guillemet)
        #expect(Self.speech("« Bonjour », dit-il, « comment “ça” va ? »", french) == "⟦« Bonjour »⟧, dit-il, ⟦« comment “ça” va ? »⟧")
        let german = DialogueQuotes(language: "de", outer: .double)
        #expect(Self.speech("„Guten Tag“, sagte er, „wie geht’s?“", german) == "⟦„Guten Tag“⟧, sagte er, ⟦„wie geht’s?“⟧")
        let guillemets = DialogueQuotes(language: "de", outer: .guillemet)
        #expect(Self.speech("»Guten Tag«, sagte er, »wie ›geht‹ es?«", guillemets) == "⟦»Guten Tag«⟧, sagte er, ⟦»wie ›geht‹ es?«⟧")
        let swedish = DialogueQuotes(language: "sv", outer: .double)
        #expect(Self.speech("”Hej”, sa hon, ”hur mår du?”", swedish) == "⟦”Hej”⟧, sa hon, ⟦”hur mår du?”⟧")
    }

    // MARK: - The corpus

    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus/text")
    static var hasCorpus: Bool { FileManager.default.fileExists(atPath: corpus.path) }

    /// A novel's paragraphs: blank-line separated, lines joined.
    static func paragraphs(_ name: String) throws -> [String] {
        let text = String(decoding: try Data(contentsOf: corpus.appendingPathComponent(name)), as: UTF8.self)
        return text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n").components(separatedBy: "\n\n")
            .map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }.filter { !$0.isEmpty }
    }

    /// Alice in the British convention: its speech's `“ ”` become `‘ ’` and the quotes inside
    /// speech (`‘ ’`, told from apostrophes by where they stand) `“ ”`; `straight`: all as `'` and `"`.
    static func british(_ text: String, straight: Bool) -> String {
        var out = ""
        var depth = 0
        let characters = Array(text)
        for (i, c) in characters.enumerated() {
            let previous = i > 0 ? characters[i - 1] : " ", next = i + 1 < characters.count ? characters[i + 1] : " "
            switch c {
            case "“": out += straight ? "'" : "‘"
            case "”": out += straight ? "'" : "’"
            case "‘" where !previous.isLetter: depth += 1; out += straight ? "\"" : "“"
            case "’" where depth > 0 && !next.isLetter && !previous.isWhitespace: depth -= 1; out += straight ? "\"" : "”"
            case "’": out += straight ? "'" : "’"
            default:
                if c == "\n", next == "\n" { depth = 0 }
                out.append(c)
            }
        }
        return out
    }

    @Test(.enabled(if: hasCorpus, "needs ../shared/corpus")) func aNovelsSpeechIsTheSameInEveryConvention() throws {
        let original = try Self.paragraphs("pg11-alice-in-wonderland.txt")
        let speech = DialogueQuotes(language: "en", sample: original).speech(in: original.map { Optional($0) })
        let text = String(decoding: try Data(contentsOf: Self.corpus.appendingPathComponent("pg11-alice-in-wonderland.txt")), as: UTF8.self)
        let straightDouble = text.replacingOccurrences(of: "“", with: "\"").replacingOccurrences(of: "”", with: "\"")
            .replacingOccurrences(of: "‘", with: "'").replacingOccurrences(of: "’", with: "'")
        for (name, converted, outer) in [("straight", straightDouble, QuoteMarks.Family.double),
                                         ("British", Self.british(text, straight: false), .single),
                                         ("British straight", Self.british(text, straight: true), .single)] {
            let paragraphs = converted.components(separatedBy: "\n\n").map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
                .filter { !$0.isEmpty }
            try #require(paragraphs.count == original.count)
            let scanner = DialogueQuotes(language: "en", sample: paragraphs)
            #expect(scanner.outer == outer, "\(name)")
            let found = scanner.speech(in: paragraphs.map { Optional($0) })
            let same = zip(found, speech).filter { $0 == $1 }.count
            // The few that differ are Alice's own mismatched marks (“Repeat, “_You are old_,’”).
            #expect(same >= original.count - 3, "\(name): \(same) of \(original.count)")
        }
    }

    @Test(.enabled(if: hasCorpus, "needs ../shared/corpus")) func apostrophesInAStraightSingleQuotedNovel() throws {
        // Jack Sheppard's dialect (`'em`, `o'`, `runnin'`, `'Sdeath`, `i' faith`) with its speech's
        // double quotes made single, as a British edition prints them.
        let original = try Self.paragraphs("pg16215-jack-sheppard.txt")
        let single = original.map { $0.replacingOccurrences(of: "\"", with: "'") }
        let a = DialogueQuotes(language: "en", sample: original), b = DialogueQuotes(language: "en", sample: single)
        #expect(a.outer == .double && b.outer == .single)
        let found = b.speech(in: single.map { Optional($0) }), expected = a.speech(in: original.map { Optional($0) })
        let same = zip(found, expected).filter { $0 == $1 }.count
        #expect(Double(same) >= 0.99 * Double(original.count), "\(same) of \(original.count)")
        let sample = try #require(single.firstIndex { $0.hasPrefix("'Throttle the kid!' rejoined Blueskin") })
        #expect(Self.marked(single[sample], found[sample]) == "⟦'Throttle the kid!'⟧ rejoined Blueskin, fiercely. ⟦'If you don't stop its "
                + "squalling, I will. I hate children. And, if I'd my own way, I'd drown 'em all like a litter o' puppies.'⟧")
    }

    @Test(.enabled(if: hasCorpus, "needs ../shared/corpus")) func howMuchOfEachNovelIsSpeech() throws {
        // A reader's share of speech in these novels (characters inside quotation marks): Alice and
        // Pride and Prejudice about two fifths, the dialogue-heavy News from Nowhere more.
        for (name, range) in [("pg11-alice-in-wonderland.txt", 0.30...0.45), ("pg1342-pride-and-prejudice.txt", 0.35...0.50),
                              ("pg16215-jack-sheppard.txt", 0.30...0.45), ("pg3261-news-from-nowhere.txt", 0.45...0.65)] {
            let paragraphs = try Self.paragraphs(name)
            let found = DialogueQuotes(language: "en", sample: paragraphs).speech(in: paragraphs.map { Optional($0) })
            let total = paragraphs.reduce(0) { $0 + $1.utf16.count }
            let speech = found.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }
            #expect(range.contains(Double(speech) / Double(total)), "\(name): \(Double(speech) / Double(total))")
            // Every stretch starts and ends with a quotation mark, except where a speech runs on from
            // or into another paragraph: at the paragraph's start or end.
            for (p, ranges) in zip(paragraphs, found) {
                let units = Array(p.utf16)
                for r in ranges {
                    #expect(QuoteMarks.isMark(units[r.lowerBound]) || r.lowerBound == 0, "\(p.prefix(80))")
                    #expect(QuoteMarks.isMark(units[r.upperBound - 1]) || r.upperBound == units.count, "\(p.prefix(80))")
                }
                #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound <= $1.lowerBound })
            }
        }
    }

    @Test(.enabled(if: hasCorpus, "needs ../shared/corpus")) func realSentencesReadAsAReaderReadsThem() throws {
        // (book, the paragraph's start, the speech in it and the next paragraphs, ⟦marked⟧, by its start)
        let cases: [(String, String, [String])] = [
            // Verse quoted in the Hatter's speech: the speech runs through it to the mark that ends it.
            ("pg11-alice-in-wonderland.txt", "The Hatter shook his head mournfully.",
             ["The Hatter shook his head mournfully. ⟦“Not I!”⟧ he replied.", "⟦‘Twinkle, twinkle, little bat! How I wonder what you’re at!’⟧",
              "⟦You know the song, perhaps?”⟧", "⟦“I’ve heard something like it,”⟧ said Alice."]),
            // A scare quote in the narrator's single marks is not speech.
            ("pg3261-news-from-nowhere.txt", "In point of fact, I did not by any means want to be 'amused'",
             ["In point of fact, I did not by any means want to be 'amused' just then;"]),
            // A possessive plural's apostrophe inside speech.
            ("pg16215-jack-sheppard.txt", "\"You'll find him at St. Saviours's stairs,\"",
             ["⟦\"You'll find him at St. Saviours's stairs,\"⟧ answered Jonathan. ⟦\"He's about to cross the river. You'd better lose no time. He has got five minutes' start of you."]),
            // A letter over several paragraphs, each opening with a mark.
            ("pg1342-pride-and-prejudice.txt", "“If you are not so compassionate as to dine to-day",
             ["⟦“If you are not so compassionate as to dine to-day", "⟦“CAROLINE BINGLEY.”⟧"]),
        ]
        for (book, start, expected) in cases {
            let paragraphs = try Self.paragraphs(book)
            let found = DialogueQuotes(language: "en", sample: paragraphs).speech(in: paragraphs.map { Optional($0) })
            let i = try #require(paragraphs.firstIndex { $0.hasPrefix(start) }, "\(start)")
            for (k, prefix) in expected.enumerated() {
                let marked = Self.marked(paragraphs[i + k], found[i + k])
                #expect(marked.hasPrefix(prefix), "\(book) \(i + k): \(marked.prefix(300))")
            }
        }
    }
}
