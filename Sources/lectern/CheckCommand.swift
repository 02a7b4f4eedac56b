import ArgumentParser
import Foundation
import LecternAudio
import LecternCore
import LecternDocuments
import LecternSpeech
import LecternRunner
import LecternText

/// `lectern check MANIFEST`: validates a manifest and lists what would be narrated, without audio.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a manifest and list chapters, paragraphs, words and estimated duration, or check MP3 files against ACX's audio rules.",
        discussion: """
            Examples: lectern check Jobs/alice.yml --json
                      lectern check --text book.txt | less    (the narration script: what a listener will hear)
                      lectern check --loudness out/alice.mp3  (integrated loudness, true peak, loudness range)
                      lectern check --acx Output/alice/       (every MP3 there against ACX's rules; exit 1 if one fails)
            """
    )

    @Argument(help: "A manifest file (YAML), or a document to read with everything inferred.")
    var manifest: String?

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Measure audio files instead (EBU R128): integrated loudness, true peak, loudness range.", valueName: "file"))
    var loudness: [String] = []

    @Option(name: .customLong("acx"), help: ArgumentHelp(
        "Check every MP3 file in a folder against ACX's audio submission rules (RMS, peak, noise floor, room tone, 44.1 kHz, 192 kbit/s CBR, length, channels); exit 1 if any fails.",
        valueName: "folder"))
    var acxFolder: String?

    @Flag(help: "Print JSON.")
    var json = false

    @Flag(help: "Print the narration script: every heading and paragraph as it will be spoken, and each passage left out, in place, with its reason.")
    var text = false

    @Flag(help: "Check as `run --readalong` would run: with NAME.html, the read-along page, among the outputs.")
    var readalong = false

    struct Report: Encodable {
        struct Chapter: Encodable {
            var number: Int
            var title: String
            /// The part the chapter belongs to (absent when none).
            var part: String?
            var paragraphs: Int
            var words: Int
            var estimatedSeconds: Double
        }
        var title: String
        var output: String
        var chapters: [Chapter]
        var paragraphs: Int
        var words: Int
        var skipped: [SkippedText]
        var estimatedSeconds: Double
        /// Stretches of text spoken through a pronunciation hint.
        var pronunciations: Int
        var unpronounced: [PronunciationNote]
        /// How the documents were read (an encoding guessed …), likely leaks in what will be spoken,
        /// and passages read although taken for ones left out, too long to be them.
        var warnings: [String]
        /// The largest skipped passages and each kind's share of the book's words.
        var skips: SkipSummary
    }

    func validate() throws {
        if json && text { throw ValidationError("give --json or --text, not both") }
        let modes = [manifest != nil, !loudness.isEmpty, acxFolder != nil].filter { $0 }.count
        if modes != 1 { throw ValidationError("give one of: a manifest or document to check, --loudness FILE…, or --acx FOLDER") }
        if manifest == nil, text || readalong { throw ValidationError("--text and --readalong check a manifest, not audio files") }
    }

    func run() throws {
        if let acxFolder {
            reportingErrors { try checkACX(folder: acxFolder) }
            return
        }
        guard let manifestPath = self.manifest else { return reportingErrors { try checkLoudness() } }
        reportingErrors {
            try ArgumentCheck.requireFiles([manifestPath], what: "manifest or document")
            var loaded = try ManifestLoader().load(URL(fileURLWithPath: manifestPath))
            if readalong && !loaded.timings.contains(.html) { loaded.timings.append(.html) }
            let book = try DocumentReader().read(loaded.sources)
            let manifest = loaded.filling(from: book.metadata)
            let plan = try Segmenter(manifest: manifest, lexicons: try LexiconFile.load(manifest.lexicons)).plan(book)
            let engine = try EspeakEngine.shared()
            let chapters = plan.chapters.map { c in
                Report.Chapter(number: c.number, title: c.title, part: c.part, paragraphs: c.utterances.count, words: c.wordCount,
                               estimatedSeconds: Self.estimate(c))
            }
            let warnings = book.warnings + plan.warnings + NarrationReview().findings(in: plan).map(\.description)
            // Where the audio goes: the book's first format, or the chapters' folder with split: chapters-only.
            let output = manifest.split.writesBook ? manifest.url(for: manifest.formats.first ?? .mp3) : manifest.chaptersFolderURL
            let report = Report(title: manifest.title, output: output.path, chapters: chapters,
                                paragraphs: plan.utteranceCount, words: plan.wordCount, skipped: plan.skipped,
                                estimatedSeconds: chapters.reduce(0) { $0 + $1.estimatedSeconds },
                                pronunciations: plan.pronunciationCount, unpronounced: plan.pronunciationNotes, warnings: warnings,
                                skips: SkipSummary(skipped: plan.skipped, readWords: plan.wordCount))
            // The script shows what was left out even when nothing is left to read.
            if text { print(NarrationScript(plan: plan, title: manifest.title).text, terminator: "") }
            // Every check `run` makes before synthesis, so what passes here does not fail there.
            _ = try JobRunner.preflight(plan, manifest: manifest, book: book, engine: engine)
            if text {
                // The script ends with what it leaves out, summed up, under a heading of its own (no chapter's).
                print("\n\(NarrationScript.leftOutHeading)\n" + report.skips.lines.map { "  " + $0 }.joined(separator: "\n"))
                for warning in warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
                return
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(report), as: UTF8.self))
                return
            }
            print("\(report.title) → \(report.output)")
            for c in chapters {
                print(String(format: "%4d  %@  (%d paragraphs, %d words, ~%@)", c.number, c.title, c.paragraphs, c.words, clock(c.estimatedSeconds)))
            }
            print("\(chapters.count) chapters, \(report.paragraphs) paragraphs, \(report.words) words, about \(clock(report.estimatedSeconds))")
            if !plan.skipped.isEmpty {
                var reasons: [String: Int] = [:]
                for s in plan.skipped { reasons[s.reason.rawValue, default: 0] += 1 }
                print("not narrated: " + reasons.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }.joined(separator: ", "))
            }
            if report.pronunciations > 0 || !report.unpronounced.isEmpty {
                print("pronunciation: \(report.pronunciations) passages spoken as a lexicon, the document or the spoken forms say")
            }
            let personae = plan.personae
            if !personae.isEmpty {
                let shown = personae.prefix(12).map { "\($0.name) (\($0.voice))" }.joined(separator: ", ")
                print("personae: \(personae.count) in \(Set(personae.map(\.voice)).count) voices — \(shown)\(personae.count > 12 ? ", …" : "")")
            }
            let detected = plan.detectedLanguages
            if !detected.isEmpty {
                print("languages detected: " + detected.map { "\($0.language) (\($0.paragraphs) paragraphs, \($0.quotations) passages in paragraphs)" }
                    .joined(separator: ", "))
            }
            let speech = plan.speech
            if manifest.dialogue != nil {
                let share = plan.wordCount > 0 ? Int((Double(speech.words) * 100 / Double(plan.wordCount)).rounded()) : 0
                print("dialogue: \(speech.passages) passages of speech in \(speech.paragraphs) paragraphs, \(speech.words) words (\(share) %), "
                      + "read with the dialogue voice")
            }
            for note in report.unpronounced {
                print("  read as written: \"\(note.text)\" (\(note.source)): \(note.reason)")
            }
            for warning in warnings { print("warning: \(warning)") }
            for line in report.skips.lines { print(line) }
        }
    }

    static func estimate(_ chapter: PlannedChapter) -> Double { NarrationEstimate.seconds(chapter) }

}
