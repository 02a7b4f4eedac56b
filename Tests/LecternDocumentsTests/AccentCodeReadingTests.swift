import Foundation
import LecternCore
import Testing
@testable import LecternDocuments

/// A 7-bit transcription's accent codes heard as the letters they stand for (issue 24, item 4):
/// the whole bracket notation, the codes a transcriber's note defines, `o/` for ø; an unknown mark
/// silent with its letter kept; never "slash", and never a letter silenced with its mark.
struct AccentCodeReadingTests {
    static func read(_ text: String) throws -> Book { try PlainTextReader().read(text: text, source: textSource()) }

    /// What espeak-ng is given for a block: its text with each pronunciation's stretch replaced.
    static func spoken(_ block: Block) -> String {
        var units = Array(block.text.utf16)
        for p in block.pronunciations.sorted(by: { $0.offset > $1.offset }) {
            units.replaceSubrange(p.offset..<p.end, with: Array(p.spoken.utf16))
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// espeak-ng's phonemes for `text` (`espeak-ng -q -x -v en-gb`), clause breaks as spaces.
    static func phonemes(_ text: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["espeak-ng", "-q", "-x", "-v", "en-gb", text]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "espeak-ng failed on \"\(text)\"")
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    static let espeakInstalled = (try? phonemes("test")) != nil

    /// The block of a one-chapter book holding `sentence`, with `before` (a transcriber's note) ahead of the chapter.
    static func block(_ sentence: String, before: String = "") throws -> Block {
        let book = try read(before + "CHAPTER I.\n\n\(sentence)\n")
        return try #require(book.chapters.first?.blocks.last)
    }

    @Test(arguments: [("Tr[/o]ndelag", "Trøndelag"), ("Tr[o/]ndelag", "Trøndelag"), ("W[/l]adys[/l]aw", "Władysław"),
                      ("[/O]rsted", "Ørsted"), ("Br[)a]ila", "Brăila"), ("[.z]ona", "żona"), ("K[=a]lid[=a]sa", "Kālidāsa"),
                      ("Erd[''o]s", "Erdős"), ("Dvo[vr][)a]k", "Dvořăk"), ("[*A]lesund", "Ålesund"), ("[Ae]lfric", "Ælfric"),
                      ("fa[c,]ade", "façade")])
    func theWholeBracketNotationIsHeardAsLetters(written: String, heard: String) throws {
        let block = try Self.block("They spoke of \(written) all evening, as people do.")
        #expect(block.text.contains(written), "the text keeps its codes")
        let word = try #require(block.pronunciations.first { $0.spoken == heard }, "\(block.pronunciations)")
        #expect((block.text as NSString).substring(with: NSRange(location: word.offset, length: word.length)) == written)
    }

    @Test(arguments: [("Mu[h.]ammad", "Muhammad"), ("[%o]ther", "other"), ("s[u=]tra", "sutra"), ("m[/i]ne", "mine")])
    func anUnknownMarkOrALetterEspeakWouldSpellIsReadAsItsBaseLetter(written: String, heard: String) throws {
        let block = try Self.block("They spoke of \(written) all evening, as people do.")
        #expect(block.pronunciations.contains { $0.spoken == heard }, "\(block.pronunciations)")
    }

    @Test func aCodeTheNoteDefinesIsReadAsTheLetterItNamesNeverSilencedWithIt() throws {
        let note = "Transcriber's Note: [e] = e with an acute accent; [#o] represents o with stroke; [P] = a pilcrow.\n\n\n\n"
        let block = try Self.block("She sent her r[e]sum[e] to the [#o]re office [P] at once.", before: note)
        #expect(Self.spoken(block).contains("résumé"), "\(Self.spoken(block))")
        #expect(Self.spoken(block).contains("øre"))
        #expect(!Self.spoken(block).contains("[P]"), "a defined code that names no letter stays silent")
    }

    @Test func aCodeTheNoteDefinesAsNoLetterIsNotDecoded() throws {
        let note = "Transcriber's Note:\n\n[O.] = A circle with a dot in the center\n[G:] = Treble clef\n\n\n\n"
        let block = try Self.block("The sign [O.], then the clef [G:]. Then [O.]ver and a[G:]ain.", before: note)
        #expect(Self.spoken(block).filter { !$0.isWhitespace } == "Thesign,thentheclef.Thenverandaain.", "\(Self.spoken(block))")
    }

    @Test func aLigatureOrALetterTheNoteNamesIsDecoded() {
        #expect(AccentDefinitions.letters(in: ["[ae] = ae-ligature, [)a] = a with breve, [u.] = u with dot below"])
            == ["ae": "æ", ")a": "ă", "u.": "u"])
        #expect(AccentDefinitions.letters(in: ["Letters with a macron are shown as [=a]; the letter ø is represented by [o/]."])
            == ["o/": "ø"])
        #expect(AccentDefinitions.letters(in: ["The ae ligature is represented by [ae]."]) == ["ae": "æ"])
    }

    @Test func aBookThatWritesOSlashForOStrokeIsReadSo() throws {
        let text = "CHAPTER I.\n\nIn Kjo/benhavn and Tro/ndelag, by the so/ and the o/re, Bjo/rn met So/ren and Jo/rgen.\n"
        let book = try Self.read(text)
        let spoken = Self.spoken(try #require(book.chapters.first?.blocks.last))
        #expect(spoken == "In Kjøbenhavn and Trøndelag, by the sø and the øre, Bjørn met Søren and Jørgen.")
        let english = try Self.read("CHAPTER I.\n\nHe and/or she went to/from the town, and he/she said so/too.\n")
        #expect(english.chapters.first?.blocks.last?.pronunciations.isEmpty == true, "and/or, to/from are not codes")
    }

    @Test func musicCodesStandingAloneStaySilent() throws {
        let block = try Self.block("A [f++] then [c=] in [4/4] and [C|] here, as written.")
        #expect(Self.spoken(block).filter { !$0.isWhitespace } == "Atheninandhere,aswritten.")
    }

    @Test(.enabled(if: espeakInstalled, "needs espeak-ng"),
          arguments: [("Tr[/o]ndelag", "Trøndelag"), ("r['e]sum['e]", "résumé"), ("W[/l]adys[/l]aw", "Władysław"),
                      ("Br[)a]ila", "Brăila")])
    func espeakHearsTheLetterNotSlash(written: String, heard: String) throws {
        let block = try Self.block("They spoke of \(written) all evening, as people do.")
        let said = try Self.phonemes(Self.spoken(block))
        #expect(said == (try Self.phonemes("They spoke of \(heard) all evening, as people do.")), "\(said)")
        #expect(!said.contains("sl'aS") && !said.contains("br'akIt"), "\(said)")
    }

    @Test func aHeadingOrANoteHearsItsCodesAsLetters() throws {
        let book = try Self.read("CHAPTER I.\n\nTR[/O]NDELAG\n\nThey rode north at dawn, as people do.[1]\n\n[1] Now called Tr[/o]ndelag.\n\n"
            + "CHAPTER II.\n\nThey rode south again at dusk, as people do.\n")
        let blocks = book.chapters.flatMap(\.blocks)
        let heading = try #require(blocks.first { $0.text.contains("TR[/O]NDELAG") })
        #expect(Self.spoken(heading) == "TRØNDELAG")
        let note = try #require(blocks.first { $0.text.contains("Now called") })
        #expect(Self.spoken(note) == "Now called Trøndelag.")
    }

    @Test(.enabled(if: espeakInstalled, "needs espeak-ng"))
    func everyLetterACodeDecodesToIsOneEspeakReadsNotSpells() throws {
        var letters = Set<String>()
        for base in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" {
            for mark in Set(AccentCodes.above.keys).union(AccentCodes.below.keys).union(["/"]) {
                for isAbove in [true, false] { letters.insert(AccentCodes.letter(base: base, mark: mark, isAbove: isAbove)) }
            }
        }
        // Each in a word of its own, as a capital starts a word and a small letter stands inside one.
        let words = letters.sorted().map { $0.first!.isUppercase ? "\($0)aba" : "ba\($0)ba" }
        let said = try Self.phonemes(words.joined(separator: " "))
        #expect(!said.contains("_|"), "a letter spelled out by name: \(said)")
    }

    @Test func theSameCodesAreHeardThroughTheHTMLPath() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let page = try dir.write("page.html", bytes: Array("""
            <html lang="en"><head><title>T</title></head><body><h2>CHAPTER I.</h2>
            <p>She went to Tr[/o]ndelag with her r['e]sum['e] in the spring.</p></body></html>
            """.utf8))
        let book = try HTMLReader().read(Source(url: page, displayPath: "page.html", format: .html, rules: ReadingRules()))
        let block = try #require(book.chapters.flatMap(\.blocks).first { $0.text.contains("Tr[/o]ndelag") })
        #expect(Self.spoken(block) == "She went to Trøndelag with her résumé in the spring.")
    }
}
