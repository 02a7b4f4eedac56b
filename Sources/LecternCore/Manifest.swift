import Foundation
import LecternSchedule

/// A fully resolved job manifest: the manifest file merged over `Config/` defaults, with every
/// path made absolute.
public struct Manifest: Sendable, Equatable {
    /// The manifest file.
    public var file: URL
    /// The job's name: the manifest's file name without extension unless `name:` is given.
    public var name: String
    public var title: String
    public var author: String?
    /// The output folder; outputs are named `<name>.mp3`, `<name>.timings.json` inside it.
    public var outputDirectory: URL
    public var cover: URL?
    /// The book's language (`language:`, a BCP 47 tag) for the outputs' metadata; the documents'
    /// own (`dc:language`) fills it in (``filling(from:)``).
    public var language: String?
    /// Narrator, description, genre, date, series, publisher, copyright, ISBN: the manifest's
    /// keys, then the documents' metadata (``filling(from:)``).
    public var details = BookDetails()
    public var sources: [Source]
    public var voice: VoiceSettings
    public var pauses: Pauses
    public var styles: [BlockKind: VoiceSettings]
    /// The voice settings of quoted speech in prose (`dialogue:`), over the voice of the paragraph
    /// it is in; nil: the narrator reads it.
    public var dialogue: VoiceSettings?
    public var overrides: [ChapterOverride]
    public var audio: AudioSettings
    public var timings: [TimingFormat]
    /// What a cue of the WebVTT export holds (`vtt: sentences | captions`).
    public var vtt = WebVTTCues.sentences
    /// The delivery rules the outputs meet (`profile: acx`), or nil.
    public var profile: DeliveryProfile?
    /// Whether opening and closing credits (title, author, narrator) are read as chapters of
    /// their own (`credits:`; on with a profile).
    public var credits = false
    /// The audio formats written (`formats: [mp3, m4b, opus]`), in the order given.
    public var formats: [AudioFormat] = [.mp3]
    /// One file per chapter besides or instead of the book (`split: none | chapters | chapters-only`).
    public var split = SplitOutput.none
    /// A cron expression (5 fields or `@daily` …) saying when `lectern daemon` runs the job.
    public var schedule: String?
    /// The rest of what `lectern daemon` needs: time zone, watching, catch-up, retries.
    public var scheduling = Scheduling()
    /// The line of each top-level key in the manifest file, for errors found after loading.
    public var lines: [String: Int] = [:]
    /// Voices for text marked as another language (`lang`, `xml:lang`), by lowercased BCP 47 tag
    /// or primary subtag; a language without an entry is spoken with espeak-ng's voice for it.
    public var languages: [String: VoiceSettings] = [:]
    /// Which text in another language is spoken with a voice for that language
    /// (`language_switching: false | true | detect`; `detect` by default: a careful narrator hears a
    /// French stanza in an English book without being told).
    public var languageSwitching = LanguageSwitching.detect
    /// Whether text in another language is spoken with a voice for that language.
    public var switchesLanguages: Bool {
        get { languageSwitching != .off }
        set { languageSwitching = newValue ? (languageSwitching == .off ? .declared : languageSwitching) : .off }
    }
    /// A play's voices for its personae (`cast:`, `cast_pool:`, `speaker_labels:`).
    public var cast = Cast()
    /// Pronunciation lexicons (Lectern YAML or PLS), first first: the manifest's own, then those
    /// of `Config/defaults.yml`.
    public var lexicons: [URL] = []
    /// Whether the manifest itself names no voice, so the book's own language may choose it.
    public var voiceFollowsBook = false
    /// The voice's name before the book's language chose it (``filling(from:)``), for a
    /// language no installed voice speaks.
    public var voiceBeforeBookLanguage: String?
    /// The `Config` folder the defaults came from (nil: built-in defaults), where the spoken-form
    /// rules (`Config/spoken/LANG.yml`) are found.
    public var configDirectory: URL?
    /// How URLs and e-mail addresses are read (`urls: domain | skip | read`).
    public var urls: URLReading = .domain
    /// The matching time the book's user-written expressions share: every source's and every
    /// lexicon's patterns together.
    public var regexBudget = RegexBudget()

    /// The manifest with what it leaves unsaid (title, author, language, the ``details``) taken
    /// from the book's own metadata; a book with no title is named after the job.
    ///
    /// A manifest that names no voice of its own reads a book in another language than the
    /// default voice's with espeak-ng's voice for the book's language (a French text's
    /// `Language: French` header, an EPUB's `dc:language`).
    public func filling(from metadata: BookMetadata) -> Manifest {
        var m = self
        if m.title.isEmpty { m.title = metadata.title ?? name }
        if m.author == nil { m.author = metadata.author }
        m.details = details.filling(from: metadata.details)
        if m.language == nil { m.language = LanguageTag.meaningful(metadata.language) == nil ? nil : metadata.language }
        if voiceFollowsBook, let language = LanguageTag.meaningful(language ?? metadata.language),
           LanguageTag.primary(language) != LanguageTag.primary(voice.name ?? "") {
            m.voice.name = languageVoice(for: language)?.name ?? language
            m.voiceBeforeBookLanguage = voice.name ?? VoiceSettings().resolved().name
        }
        return m
    }

    /// The `languages` entry for a tag (BCP 47 lookup: `de-at`, then `de`), with its key.
    public func languageVoice(for tag: String) -> VoiceSettings? {
        LanguageTag.lookup(tag).lazy.compactMap { languages[$0] }.first
    }

    /// The `languages` key that maps `tag` (BCP 47 lookup), for errors.
    public func languageKey(for tag: String) -> String? {
        LanguageTag.lookup(tag).first { languages[$0] != nil }
    }

    /// The book's MP3 file.
    public var mp3URL: URL { outputDirectory.appendingPathComponent("\(name).mp3") }
    /// The JSON word-timing sidecar.
    public var timingsURL: URL { url(for: .json) }

    /// Where a timing export is written.
    public func url(for format: TimingFormat) -> URL { outputDirectory.appendingPathComponent("\(name).\(format.fileExtension)") }

    /// The book as one file in `format` (`NAME.mp3`, `NAME.m4b`, `NAME.opus`).
    public func url(for format: AudioFormat) -> URL {
        format == .mp3 ? mp3URL : outputDirectory.appendingPathComponent("\(name).\(format.fileExtension)")
    }

    /// With `split: chapters`, the folder of chapter files (every format's) …
    public var chaptersFolderURL: URL { outputDirectory.appendingPathComponent("\(name)-chapters") }
    /// … and the playlist of the MP3 chapter files, `NAME.m3u8`.
    public var playlistURL: URL { playlistURL(for: .mp3) }
    /// The playlist of one format's chapter files: `NAME.m3u8` for MP3, `NAME.m4b.m3u8`, `NAME.opus.m3u8`.
    public func playlistURL(for format: AudioFormat) -> URL {
        outputDirectory.appendingPathComponent(format == .mp3 ? "\(name).m3u8" : "\(name).\(format.fileExtension).m3u8")
    }

    /// The book's file the sidecar and the read-along page name: the first format's (with
    /// `split: chapters-only`, its playlist: the sidecar's times are then those of its files
    /// played one after the other).
    public var listeningURL: URL {
        split.writesBook ? url(for: formats.first ?? .mp3) : playlistURL(for: formats.first ?? .mp3)
    }

    /// The book's audio files a run writes: one per format, unless `split: chapters-only`.
    public var bookAudioURLs: [URL] { split.writesBook ? formats.map(url(for:)) : [] }

    /// The files a run writes: the book in each format, each timing export, and with
    /// `split: chapters` the playlists and the chapters' folder.
    public var outputURLs: [URL] {
        bookAudioURLs + timings.map(url(for:)) + (split.writesChapters ? formats.map(playlistURL(for:)) + [chaptersFolderURL] : [])
    }
}

/// Which text gets a voice for its language: none (`off`), text marked as another language
/// (`declared`: `lang`, `xml:lang`), or also paragraphs identified as another language (`detect`).
public enum LanguageSwitching: String, Sendable, Equatable {
    case off, declared, detect
}

/// When and how `lectern daemon` runs a job besides its `schedule`.
public struct Scheduling: Sendable, Equatable {
    /// The IANA time zone the schedule is read in (nil: the machine's).
    public var timeZone: String?
    /// Re-render when the manifest or a source changes.
    public var watch = false
    /// What a daemon does about scheduled runs missed while it was down (`catchup: once|none`).
    public var catchUp = CatchUp.once
    /// Failed runs are retried up to `retryLimit` times, after `retryDelay` seconds, doubling
    /// each time up to `retryMaxDelay`.
    public var retryLimit = 3
    public var retryDelay: Double = 30
    public var retryMaxDelay: Double = 3600
    /// When chunks go through a shared store's queue, a job's chunks are claimed before those of
    /// jobs with a lower `priority` (-1000…1000, default 0); equal priorities take turns.
    public var priority = 0
    /// Attempts a chunk gets in a shared store's queue (its worker died, or it could not be
    /// uploaded or recorded) before it fails, and its run with it (`chunk_attempts:`, 1…100, default 3).
    public var chunkAttempts = 3

    public init() {}
}

/// One input document and how to read it.
public struct Source: Sendable, Equatable {
    public enum Format: String, Sendable, CaseIterable { case text, markdown, html, epub }

    public var url: URL
    /// The path as written in the manifest, used in messages and sidecars.
    public var displayPath: String
    /// Where the source is written in its manifest (file, line and key such as `sources[2]`),
    /// for errors about its keys found while reading (a marker that matches nothing).
    public var origin: ManifestError?
    /// The line of each key given in the source's entry (`skip`, `chapters.heading` …), for
    /// errors about that key.
    public var keyLines: [String: Int] = [:]
    public var format: Format
    public var chapters: ChapterRule
    /// Paragraphs matching any of these regular expressions are skipped (and listed as skipped).
    public var skip: [String]
    /// Where reading starts and ends, and how HTML and EPUB structures are read.
    public var rules: ReadingRules
    /// The matching time this source's patterns share with the rest of the book's.
    public var regexBudget = RegexBudget()
    /// The folder of the manifest that names the source (nil: a document read alone): the files
    /// the document links (stylesheets, lexicons) must lie in it or in the document's own folder.
    public var root: URL?

    /// The folders a file the document links may lie in (``LinkedFile``).
    public var linkRoots: [URL] { [root, url.deletingLastPathComponent()].compactMap { $0 } }

    /// The largest source document read (a larger one is refused unread).
    public static let maxBytes = 512 << 20

    public init(url: URL, displayPath: String? = nil, format: Format, chapters: ChapterRule = ChapterRule(), skip: [String] = [],
                rules: ReadingRules = ReadingRules()) {
        self.url = url
        self.displayPath = displayPath ?? url.lastPathComponent
        self.format = format
        self.chapters = chapters
        self.skip = skip
        self.rules = rules
    }

    /// The format a file's extension implies.
    public static func format(forExtension ext: String) -> Format {
        switch ext.lowercased() {
        case "md", "markdown": return .markdown
        case "htm", "html", "xhtml": return .html
        case "epub": return .epub
        default: return .text
        }
    }
}

/// How a source's boilerplate is cut off and how structured documents (HTML, EPUB) are read.
/// Everything left out is listed as skipped with its reason.
public struct ReadingRules: Sendable, Equatable {
    public enum Tables: String, Sendable, CaseIterable { case read, skip, summary }
    /// Where note bodies are read: after the paragraph that refers to them, at the end of its
    /// chapter, at the end of the book, or not at all.
    public enum Footnotes: String, Sendable, CaseIterable { case paragraph, chapter, book, skip }
    public enum NonLinear: String, Sendable, CaseIterable { case skip, append }
    public enum Malformed: String, Sendable, CaseIterable { case error, skip }
    public enum Illustrations: String, Sendable, CaseIterable { case skip, read }
    public enum StageDirections: String, Sendable, CaseIterable { case read, skip }

    /// Reading starts at the first block matching this regular expression (that block included).
    public var startAt: String?
    /// Reading starts after the first block matching this regular expression.
    public var startAfter: String?
    /// Reading ends before the first block (after the start) matching this regular expression.
    public var endAt: String?
    /// Data tables are read a sentence per row (each cell after its column header), or summed up
    /// (caption and row count); layout tables are read cell by cell; or every table is skipped.
    public var tables: Tables
    /// Footnote bodies are read at the end of the paragraph that refers to them, at the end of
    /// the chapter, or skipped.
    public var footnotes: Footnotes
    /// EPUB spine items marked `linear="no"` are skipped or read after the rest.
    public var nonLinear: NonLinear
    /// A malformed XHTML file in an EPUB fails the run, or is skipped (and listed).
    public var malformed: Malformed
    /// Whether the documents' own pronunciation hints are honoured: `ssml:ph` attributes and the
    /// PLS lexicons a document links to (`<link rel="pronunciation">`).
    public var pronunciation: Bool
    /// Plain text and Markdown: the character encoding — `auto` (UTF-8, else UTF-16 with a
    /// byte-order mark, else Windows-1252 with a warning) or a name the system's converter knows.
    public var encoding: String = "auto"
    /// Plain text: `[Illustration: …]` captions are skipped (listed) or read as "Illustration: …".
    public var illustrations: Illustrations = .skip
    /// Plays: a stage direction is read as a block of its own, or skipped (listed).
    public var stageDirections: StageDirections = .read
    /// HTML and EPUB: whether front matter (title page, copyright page …) and back matter (index,
    /// colophon …) marked as such are read or skipped (listed).
    public var matter = Matter()

    /// `matter: { front: read|skip, back: read|skip }`.
    public struct Matter: Sendable, Equatable {
        public enum Reading: String, Sendable, CaseIterable { case read, skip }
        public var front: Reading = .skip
        public var back: Reading = .skip
        public init(front: Reading = .skip, back: Reading = .skip) {
            self.front = front
            self.back = back
        }
    }

    public init(startAt: String? = nil, startAfter: String? = nil, endAt: String? = nil, tables: Tables = .read,
                footnotes: Footnotes = .chapter, nonLinear: NonLinear = .skip, malformed: Malformed = .error, pronunciation: Bool = true) {
        self.startAt = startAt
        self.startAfter = startAfter
        self.endAt = endAt
        self.tables = tables
        self.footnotes = footnotes
        self.nonLinear = nonLinear
        self.malformed = malformed
        self.pronunciation = pronunciation
    }
}

/// How a source is divided into chapters.
public struct ChapterRule: Sendable, Equatable {
    /// Plain text: `auto` finds the book's structure (boilerplate, contents, parts, chapters,
    /// notes); `none` reads the text whole as one chapter; a `heading` pattern overrides both.
    /// EPUB: `toc` (the default there) takes chapters from the table of contents.
    public enum Detection: String, Sendable, CaseIterable { case auto, none, toc }
    public var detection: Detection = .auto
    /// Plain text: a line matching this regular expression starts a chapter; if it has a capture
    /// group, the group's text is the chapter's title.
    public var heading: String?
    /// Plain text: the next non-blank line after a heading line is the chapter's subtitle.
    public var subtitle: Bool
    /// Text before the first chapter heading is not read (it is listed as skipped front matter).
    public var skipBeforeFirst: Bool
    /// Markdown, HTML and EPUB: headings of this level (1–6) start chapters.
    public var level: Int
    /// Whether `level` was given (EPUB: headings, not the table of contents, start chapters).
    public var levelGiven = false
    /// HTML and EPUB: elements matching this CSS selector (e.g. `div.sect1 > p.titre`) start chapters.
    public var selector: String?
    /// A title for a source without headings (default: the file's name).
    public var title: String?

    public init(detection: Detection = .auto, heading: String? = nil, subtitle: Bool = false, skipBeforeFirst: Bool = false,
                level: Int? = nil, title: String? = nil) {
        self.detection = detection
        self.heading = heading
        self.subtitle = subtitle
        self.skipBeforeFirst = skipBeforeFirst
        self.level = level ?? 1
        levelGiven = level != nil
        self.title = title
    }
}

/// Silence before and after an utterance, in seconds (AVSpeechUtterance's pre- and post-utterance delay).
public struct Pause: Sendable, Equatable {
    public var before: Double
    public var after: Double
    public init(before: Double = 0, after: Double = 0) {
        self.before = before
        self.after = after
    }
}

/// The pauses for each kind of block, and around chapters.
public struct Pauses: Sendable, Equatable {
    public var byKind: [BlockKind: Pause]
    /// Silence at the start and end of every chapter (outside its blocks' own pauses).
    public var chapter: Pause
    /// Silence at a section break (`* * *` between paragraphs): its `before` replaces the next
    /// block's own, when longer.
    public var section = Pause()

    public init(byKind: [BlockKind: Pause] = [:], chapter: Pause = Pause()) {
        self.byKind = byKind
        self.chapter = chapter
    }

    public func pause(for kind: BlockKind) -> Pause { byKind[kind] ?? Pause() }
}

/// Settings that apply to one chapter, chosen by number or title.
public struct ChapterOverride: Sendable, Equatable {
    public enum Selector: Sendable, Equatable {
        case number(Int)
        case title(String)
    }
    public var chapter: Selector
    public var voice: VoiceSettings?
    public var title: String?
    public var skip: Bool
    /// The manifest line, for "matches no chapter" errors.
    public var line: Int?

    public func matches(number: Int, title chapterTitle: String) -> Bool {
        switch chapter {
        case .number(let n): return n == number
        case .title(let t): return t.caseInsensitiveCompare(chapterTitle) == .orderedSame
        }
    }
}

/// MP3 encoding settings.
public struct AudioSettings: Sendable, Equatable {
    /// CBR bitrate in kbit/s.
    public var bitrate: Int
    /// LAME's algorithm quality, 0 (best, slowest) … 9 (worst, fastest); see ``defaultQuality``.
    public var quality: Int

    /// The CBR bitrates of MPEG-2 Layer III, the MP3 flavour for espeak-ng's 22050 Hz output, from
    /// 56 kbit/s up: below that a frame is too small for the LAME tag that tells decoders the
    /// encoder delay and padding, without which no time in a book could be exact.
    public static let validBitrates = [56, 64, 80, 96, 112, 128, 144, 160]

    /// LAME quality when a manifest names none: the setting with the least encoder CPU time whose
    /// wideband PESQ on corpus speech is not lower than quality 3's (the default before it was
    /// measured), the same at every bitrate: `make bench BENCH=quality`, table in docs/BENCHMARKS.md.
    public static let defaultQuality = 7

    /// Where each chunk's loudness is brought (`loudness:`); nil keeps the engine's levels.
    public var loudness: LoudnessTarget?

    /// Whether each chunk's PCM is kept in the cache beside its MP3 stream (FLAC), for the
    /// formats encoded from the book's PCM (``AudioFormat/needsPCM``).
    public var keepsPCM = false

    public init(bitrate: Int = 64, quality: Int = AudioSettings.defaultQuality, loudness: LoudnessTarget? = nil) {
        self.bitrate = bitrate
        self.quality = quality
        self.loudness = loudness
    }
}

/// A timing export, written beside the MP3 as `NAME.` + ``fileExtension``.
public enum TimingFormat: String, Sendable, CaseIterable {
    /// The JSON sidecar (`NAME.timings.json`), the source of every other export.
    case json
    /// WebVTT: a cue per sentence with a timestamp before each word.
    case vtt
    /// SubRip: a cue per sentence (long ones split), two lines at most.
    case srt
    /// A self-contained read-along page that plays the MP3 and highlights each word.
    case html
    /// A narrated EPUB 3: the text with an id on every paragraph, sentence and word, an MP3 per
    /// chapter and SMIL media overlays (an EPUB 3 input keeps its own XHTML, marked).
    case epub

    public var fileExtension: String {
        switch self {
        case .json: return "timings.json"
        case .vtt: return "vtt"
        case .srt: return "srt"
        case .html: return "html"
        case .epub: return "epub"
        }
    }
}
