import LecternSchedule

extension ManifestSchema {
    /// Every key, once, in the order the documentation lists them. A new key is declared here:
    /// one whose value is one scalar with `.reading(…)` (``LayerField``), which reads and merges
    /// it; any other is parsed by ``ManifestLayer``, which reads its range from its declaration.
    static let table: [ManifestKey] = book + sources + voice + pauses + styles + dialogue + overrides + sound + speech + cast + exports + daemon + host

    private static let book: [ManifestKey] = [
        ManifestKey("title", .text, default: "what the document says, else the file name", doc: "the book's title: ID3 title and album",
                    details: #"The default is what the document says — a text's `Title:` header line, an HTML page's `<title>`, an EPUB's metadata — else the file name; a manifest needs one unless an EPUB source gives it. An EPUB's metadata fills every descriptive key that the manifest leaves out: `dc:description` (calibre's HTML made plain), the first `dc:subject`, `dc:date`, `dc:publisher`, `dc:rights`, `dc:language`, an ISBN `dc:identifier`, and the series from `calibre:series`/`calibre:series_index` or `belongs-to-collection`"#,
                    example: "'A Tale'")
            .reading(.text(\.title)),
        ManifestKey("author", .text, default: "what the document says", doc: "ID3 artist (`Author:` header, `<meta name=author>`, `dc:creator`)", example: "'Some One'")
            .reading(.text(\.author)),
        ManifestKey("name", .text, range: "a file name without `/`, not starting with `.`", default: "the manifest's file name", doc: "the job's name and its outputs' file name", example: "tale")
            .reading(nameField),
        ManifestKey("output", .path, default: "`out/NAME` beside `Jobs/`, or beside the manifest", doc: "the output folder", example: "out/tale")
            .reading(.text(\.output)),
        ManifestKey("cover", .path, range: "a JPEG or PNG file", doc: "the cover: the ID3 picture and the narrated EPUB's cover image",
                    details: #"Decoded completely before it is accepted: a truncated or corrupt picture, or one over 10,000 × 10,000 pixels, is an error in `check` and `run`; an EPUB source's own such cover is left out with a warning. With `timings: [epub]` it is the narrated EPUB's cover image (`properties="cover-image"`, in place of an EPUB source's own)"#,
                    example: "cover.jpg")
            .reading(.text(\.cover)),
        ManifestKey("narrator", .text, default: "`eSpeak NG (Lectern)`", doc: "who reads the book: ID3 TCOM and the EPUB's `media:narrator`",
                    details: "ID3 TCOM is ffprobe's `composer`, which audiobook apps show as the narrator", example: "'A. Reader'"),
        ManifestKey("description", .text, doc: "ID3 COMM (ffprobe's `comment`) and `dc:description`", example: "'A short book.'"),
        ManifestKey("genre", .text, doc: "ID3 TCON and `dc:subject`", example: "Fiction"),
        ManifestKey("date", .text, range: "`YYYY`, `YYYY-MM` or `YYYY-MM-DD`", doc: "the book's date: ID3 TYER (and TDAT for a full date) and `dc:date`",
                    details: "ffprobe's `date`, mutagen's `TDRC`; give either `date` or `year`, not both", example: "1865-11-26"),
        .year,
        ManifestKey("series", .text, doc: "the series the book is part of: ID3 `TXXX:SERIES` and the EPUB's `belongs-to-collection`",
                    details: "ffprobe's `series` and `series-part`, the names audiobookshelf reads", example: "'Wonderland'"),
        ManifestKey("series_index", .text, range: "a number such as `2` or `2.5`; needs `series`", doc: "the book's number in its series: ID3 `TXXX:SERIES-PART` and the EPUB's `group-position`", example: "'2'"),
        ManifestKey("publisher", .text, doc: "ID3 TPUB and `dc:publisher`", example: "'A Press'"),
        ManifestKey("copyright", .text, doc: "ID3 TCOP and `dc:rights`", example: "'Public domain'"),
        ManifestKey("language", .languageTag, range: "a BCP 47 tag such as `en-GB`", default: "the documents' own",
                    doc: "the book's language: ID3 TLAN (as `eng`), the narrated EPUB's language, and the voice when the manifest names none", example: "de-AT"),
        ManifestKey("isbn", .text, range: "ISBN-10 or -13, hyphens allowed, its check digit right", doc: "ID3 `TXXX:ISBN` and, in the narrated EPUB, a `dc:source` `urn:isbn:…`", example: "'978-0-14-143976-1'"),
    ]

    private static let sources: [ManifestKey] = [
        ManifestKey("sources", .list, doc: "the documents in reading order: a path, or a mapping with `path` and the keys below",
                    details: "A `*` in the file name matches files, sorted by name. A key that does not apply to the source's format is an error naming it", example: "[book.txt]"),
        ManifestKey("sources[].path", .path, doc: "the document (a `*` in the file name matches files, sorted by name)", merge: .withParent, example: "book.txt"),
        ManifestKey("sources[].format", .choice, values: .choices(of: Source.Format.self), default: "from the extension",
                    doc: "how the document is read", details: "`.md` is Markdown, `.htm`/`.html`/`.xhtml` HTML, `.epub` EPUB, anything else plain text", merge: .withParent, example: "text"),
        ManifestKey("sources[].title", .text, default: "the file's name", doc: "the title of a source without headings", merge: .withParent, example: "'Preface'"),
        ManifestKey("sources[].chapters", .choiceOrMapping, range: "auto, none, toc (EPUB), or a mapping of the keys below", default: "auto (EPUB: toc)",
                    doc: "how the source is divided into chapters",
                    details: #"Plain text, HTML and EPUB: `auto` finds the book's structure by the same rules in every format (Project Gutenberg's header and licence, title page, contents, lists of illustrations, index, errata, parts and chapters, notes, plays' cast lists (read, as a chapter before the first act), acts, speakers and stage directions), the chapter level chosen from the headings the page marks; `none` reads the text whole as one chapter. EPUB: `toc` takes chapters from the book's table of contents (the structure found inside them), an entry that covers more than one top-level heading split at those headings. Headings are what the document shows: `h1`–`h6`, `role="heading"`, `epub:type` title/part, and classed blocks the book's own CSS makes short and large or bold (ranked by font size); running heads and feet (`display: oeb-page-head`/`oeb-page-foot`, `position: running(…)`) are listed as skipped"#,
                    merge: .withParent, example: "none"),
        ManifestKey("sources[].chapters.heading", .text, range: "a regular expression", doc: "a line matching it starts a chapter; a capture group, if any, is the title",
                    merge: .withParent, formats: [.text], example: "'^CHAPTER [IVXLC]+'"),
        ManifestKey("sources[].chapters.subtitle", .bool, default: "false", doc: "the next non-blank line after a heading line is the chapter's title", merge: .withParent, formats: [.text], example: "true"),
        ManifestKey("sources[].chapters.skip_before_first", .bool, default: "false", doc: "text before the first chapter heading is not read (listed as skipped)", merge: .withParent, example: "true"),
        .chapterLevel,
        ManifestKey("sources[].chapters.selector", .text, range: "a CSS selector", doc: "elements matching it start chapters, titled by their text (not with `level`)",
                    merge: .withParent, formats: [.html, .epub], example: "'div.sect1 > p.titre'"),
        ManifestKey("sources[].skip", .textOrList, range: "regular expressions", doc: "matching paragraphs are listed as skipped, not read",
                    details: #"Every regex a user writes (`skip`, `start_at`, `start_after`, `end_at`, `chapters.heading`, a lexicon's `patterns`) is matched with a time limit — 1 s for one text, and 5 s plus 1 s per million characters for all of the book's patterns together — and one that takes longer (nested repetition such as `(a+)+$` backtracks exponentially) fails `check` and `run` with an error naming its file, line and key. YAML files may hold at most 1,000 aliases (`*name`), expanding to at most 100,000 values"#,
                    merge: .withParent, example: "['^Transcriber']"),
        ManifestKey("sources[].start_at", .text, range: "a regular expression", doc: "reading starts at the first matching line (or block)",
                    details: #"In plain text the markers are matched against the lines as written (`'^CHAPTER I$'` matches that line even when its title follows on the next line), and a pattern that spans a line break against the paragraphs; in other formats against the blocks. The cut text is listed as skipped. A marker that matches nothing, or that leaves no word to read, is an error in `check` and `run` naming the key. Project Gutenberg's own markers need none of this: `chapters: auto` finds them"#,
                    merge: .withParent, example: "'^CHAPTER I'"),
        ManifestKey("sources[].start_after", .text, range: "a regular expression", doc: "reading starts after the first matching line (not with `start_at`)", merge: .withParent, example: "'^CONTENTS'"),
        ManifestKey("sources[].end_at", .text, range: "a regular expression", doc: "reading ends before the first matching line after the start", merge: .withParent, example: "'^THE END'"),
        ManifestKey("sources[].encoding", .text, range: "auto, or an encoding name iconv knows", default: "auto", doc: "the character encoding",
                    details: #"`auto`: UTF-8 when valid — stray bytes in otherwise UTF-8 text read as Windows-1252, with a warning naming their offsets —, else UTF-16 with a byte-order mark, else Windows-1252 with a warning. Or any name the system's converter (iconv) knows: `utf-8` (strict: a bad byte is an error naming its offset), `utf-16`, `windows-1252`, `iso-8859-1`, `iso-8859-15`, `mac-roman`, …"#,
                    merge: .withParent, formats: [.text, .markdown], example: "windows-1252"),
        ManifestKey("sources[].illustrations", .choice, values: .choices(of: ReadingRules.Illustrations.self), default: "skip",
                    doc: "`[Illustration: …]` captions are skipped (listed) or read as \"Illustration: …\"", merge: .withParent, formats: [.text], example: "read"),
        ManifestKey("sources[].stage_directions", .choice, values: .choices(of: ReadingRules.StageDirections.self), default: "read",
                    doc: "a play's stage directions are read, each a block of its own (kind `stage_direction`, never inside the speech around it), or skipped (listed)",
                    merge: .withParent, example: "skip"),
        ManifestKey("sources[].tables", .choice, values: .choices(of: ReadingRules.Tables.self), default: "read", doc: "how tables are read",
                    details: #"`read`: a data table — one with column headers from `th`, `thead` or a first row of labels — is read a sentence per row, each cell after its header, "Paris. Area: 105 km². Price: 12.", its caption first; the header row is listed as skipped, its words being said with every row; a layout table — one column, or no headers and prose cells — is read cell by cell. `summary`: a data table becomes "Table: CAPTION, N rows.", the rows listed as skipped. `skip`: every table listed as skipped"#,
                    merge: .withParent, formats: [.html, .epub], example: "summary"),
        ManifestKey("sources[].footnotes", .choice, values: .choices(of: ReadingRules.Footnotes.self), default: "chapter", doc: "where footnote bodies are read, each announced (\"Note 3.\", Config/spoken/LANG.yml's `note`): after the paragraph that refers to them, at the end of its chapter (the default, a narrator's choice: the chapter's flow is not broken and the notes stay near their text), at the end of the book (a chapter Notes), or skipped",
                    details: "HTML/EPUB notes; in plain text `[1] …`, `[Footnote 1: …]` and FOOTNOTES sections, also gathered at the end of a book. The markers (`[1]`, `{1}`, `^1`, `[*]`) stay in the text, silent",
                    merge: .withParent, formats: [.text, .html, .epub], example: "paragraph"),
        ManifestKey("sources[].nonlinear", .choice, values: .choices(of: ReadingRules.NonLinear.self), default: "skip", doc: "spine items marked `linear=\"no\"` are skipped (listed) or appended",
                    merge: .withParent, formats: [.epub], example: "append"),
        ManifestKey("sources[].malformed", .choice, values: .choices(of: ReadingRules.Malformed.self), default: "error", doc: "a malformed XHTML file fails the run, or is skipped with its text listed",
                    merge: .withParent, formats: [.epub], example: "skip"),
        ManifestKey("sources[].pronunciation", .bool, default: "true", doc: "honour the document's own pronunciation hints",
                    details: #"`ssml:ph` attributes (IPA, or `x-espeak` phonemes) and the PLS lexicons it links (`<link rel="pronunciation">`); `false` ignores them"#,
                    merge: .withParent, formats: [.html, .epub], example: "false"),
        ManifestKey("sources[].matter", .mapping, doc: "whether front and back matter marked as such are read or skipped (listed)",
                    details: #"Front and back matter marked by `epub:type` or `role="doc-…"` — front: `titlepage`, `halftitlepage`, `copyright-page`; back: `index`, `colophon`; `acknowledgments` and `imprint` on the side they stand on (before or after the body); a type the element itself places on the other side, such as Moby-Dick's `frontmatter colophon` transcriber's notes, is read — and, in an EPUB, whole documents or sections the nav's `landmarks` or the EPUB 2 `<guide>` call so (also `toc`, `title-page`), are listed as skipped, e.g. "copyright page (matter: front)". A title page still gives the book its title when the metadata has none. Running heads and feet (`doc-pageheader`/`doc-pagefooter`, and in an EPUB a class opening or closing most spine documents whose text is the book's title or a heading of the document, or repeats) are always skipped, listed as "running head"/"running foot""#,
                    merge: .withParent, formats: [.html, .epub], example: "{ front: read }"),
        ManifestKey("sources[].matter.front", .choice, values: .choices(of: ReadingRules.Matter.Reading.self), default: "skip", doc: "front matter (title page, copyright page …)", merge: .withParent, example: "read"),
        ManifestKey("sources[].matter.back", .choice, values: .choices(of: ReadingRules.Matter.Reading.self), default: "skip", doc: "back matter (index, colophon …)", merge: .withParent, example: "read"),
    ]

    private static let voice: [ManifestKey] = [
        ManifestKey("voice", .voice, default: "`{ name: en, rate: 0.5, pitch: 1.0, volume: 1.0 }`", doc: "the book's voice",
                    details: "A voice is resolved in layers: defaults → manifest → style → chapter override → a play's persona (`cast`). Voice mapping onto espeak-ng: rate 0 → 80, 0.5 → 175, 1 → 450 words per minute (linear on each side); pitch multiplier m → espeak pitch 50 + 50·log2(m); volume v → espeak volume 100·v",
                    merge: .fieldByField, example: "{ name: en-gb, rate: 0.55 }"),
        ManifestKey("voice.name", .text, default: "en", doc: "an espeak-ng voice or language code (`en-gb`), or a Piper voice's name (`en_US-joe-medium`); `lectern voices` lists them",
                    example: "en-gb"),
        ManifestKey("voice.engine", .choice, values: .choices(VoiceSettings.engines), default: ResolvedVoice.espeakEngine, doc: "the speech engine (`piper`: a neural voice, installed by `make piper`)", example: ResolvedVoice.espeakEngine),
        ManifestKey("voice.model", .path, range: "a prepared Piper voice's `.onnx`", doc: "a Piper voice by its model file (implies `engine: piper`)", example: "voices/my-voice.onnx"),
        ManifestKey("voice.speaker", .text, range: "a speaker's name or id (0…)", doc: "a multi-speaker Piper voice's speaker (implies `engine: piper`); `lectern voices` lists the speakers of the installed voices as `VOICE#SPEAKER`", example: "12"),
        .voiceRate,
        .voiceWPM,
        .voicePitch,
        .voiceVolume,
        ManifestKey("voice.preset", .text, range: "a name in `Config/voices.yml`", doc: "a named voice from `Config/voices.yml`, which the other fields change", example: "narrator"),
    ]

    private static let pauses: [ManifestKey] = [
        ManifestKey("pauses", .mapping, doc: "silence around blocks, chapters and section breaks, in seconds", merge: .perEntry, example: "{ paragraph: { after: 0.6 } }"),
    ] + ManifestSchema.pauseKinds.map { kind, defaults, doc in
        ManifestKey("pauses.\(kind)", .mapping, default: defaults, doc: doc, merge: .fieldByField, example: "{ before: 0.2, after: 0.5 }")
    } + [
        .pauseBefore,
        .pauseAfter,
    ]

    private static let styles: [ManifestKey] = [
        ManifestKey("styles", .mapping, doc: "voice changes per block kind, over the book's voice", merge: .perEntry, example: "{ heading: { rate: 0.45 } }"),
    ] + BlockKind.allCases.map { kind in
        ManifestKey("styles.\(kind.rawValue)", .voice, doc: "the voice of \(kind.rawValue.replacingOccurrences(of: "_", with: " ")) blocks (the keys of `voice`)",
                    merge: .fieldByField, example: "{ rate: 0.45 }")
    }

    private static let dialogue: [ManifestKey] = [
        ManifestKey("dialogue", .voice, default: "none: the narrator reads it", doc: "the voice of quoted speech in prose, over the voice of the paragraph it is in (the keys of `voice`)",
                    details: #"`{ pitch: 1.15 }` keeps the narrator's voice a little higher; `{ name: en+f3, rate: 0.55 }` is another voice. Speech is what a reader takes for it: the stretches between the quotation marks the book quotes speech with — the family that opens the most quotations in the book (`“…”`, `‘…’` in a British edition, straight quotes, `«…»` in French, `„…“` and `»…«` in German) — with every quotation nested inside; apostrophes are not marks (`don't`, `'tis`, `’em`, `'98`, `dogs' dinner`, `runnin'`, `rock 'n' roll`); a speech over several paragraphs goes on while each opens with a quotation mark, or through a few paragraphs without marks (a letter or verse quoted in it) to a closing mark nothing opened, and otherwise a quotation left open ends with its paragraph, never running on through the chapter; a short mention inside a sentence (`the word “Hallo”`) and a quotation in the other family at the top level (`he called it ‘fun’`) are the narrator's. Paragraphs, block quotations and list items have speech, headings and a play's speaker labels and stage directions none. The settings go over the paragraph's own voice (after `styles`, `overrides` and its language); in a paragraph read in another language only their rate, pitch and volume apply, and a passage in another language inside speech is read with its language's voice at the speech's rate, pitch and volume. The quotation marks stay in the text and the timings; the voice changes at them after the pause the punctuation there asks for and a beat of 0.12 s, as espeak-ng itself pauses at a closing quotation mark. `lectern check --text` shows speech between `⟨` and `⟩`"#,
                    merge: .fieldByField, example: "{ pitch: 1.15 }"),
    ]

    private static let overrides: [ManifestKey] = [
        ManifestKey("overrides", .list, doc: "settings for single chapters, chosen by number or title", merge: .append, example: "[{ chapter: 1, skip: true }]"),
        ManifestKey("overrides[].chapter", .text, range: "a number from 1, or a chapter's title", doc: "the chapter (needed)", merge: .withParent, example: "'Preface'"),
        ManifestKey("overrides[].voice", .voice, doc: "the chapter's voice (the keys of `voice`)", merge: .withParent, example: "{ name: en-gb }"),
        ManifestKey("overrides[].title", .text, doc: "the chapter's title in the MP3's chapters and the sidecar", merge: .withParent, example: "'Before the Story'"),
        ManifestKey("overrides[].skip", .bool, default: "false", doc: "leave the chapter out", merge: .withParent, example: "true"),
    ]

    private static let sound: [ManifestKey] = [
        ManifestKey("audio", .mapping, doc: "MP3 encoding", merge: .perEntry, example: "{ bitrate: 96 }")
            .reading(.mapping),
        ManifestKey("audio.bitrate", .wholeNumber, values: .choices(AudioSettings.validBitrates.map(String.init)), default: "64",
                    doc: "the CBR bitrate in kbit/s (an MPEG-2 bitrate that can carry the LAME tag)", example: "96")
            .reading(bitrateField),
        ManifestKey("audio.quality", .wholeNumber, values: .wholeNumbers(0...9), default: String(AudioSettings.defaultQuality),
                    doc: "LAME's algorithm quality, 0 best … 9 fastest", details: "The default is the fastest setting whose PESQ is not below quality 3's (`make bench BENCH=quality`, docs/BENCHMARKS.md)", example: "5")
            .reading(.wholeNumber(\.quality)),
        ManifestKey("loudness", .choiceOrMapping, range: "off, or a mapping of the keys below", default: "{ target: -18, true_peak: -1.5 }",
                    doc: "bring the speech to a loudness standard (EBU R128, measured with libebur128)",
                    details: "Each chunk (about a minute of speech, cut in a pause) is measured, turned to the target's integrated loudness and its peaks held under the true-peak limit by a look-ahead limiter that moves no sample in time, so timings stay exact; a chunk's levelling depends on its own audio only, so cached chunks stay valid wherever they lie and an edit re-renders only its own. A book mixing espeak-ng and Piper voices comes out at one level. On by default: `-18` LUFS and `-1.5` dBTP suit spoken word on phones and players (podcast apps and AES's streaming recommendation aim at −16 to −19 LUFS, audiobook apps play louder material than espeak-ng's −21; −1.5 dBTP keeps the peaks of MP3, AAC and Opus decodes, which overshoot the PCM by up to a decibel, under EBU R128's −1 dBTP for lossy delivery; ACX asks for −23 to −18 dB RMS and peaks under −3 dB, which `profile: acx` meets with `{ target: -19, true_peak: -3.5 }`). `off` keeps the engine's levels (espeak-ng's own: about −21 LUFS with true peaks near 0 dBTP, too quiet for phones and too hot for ACX); a voice's `volume` then matters only against the voices beside it in a chunk. `lectern check --loudness FILE` measures the result",
                    merge: .fieldByField, example: "{ target: -18, true_peak: -1.5 }")
            .reading(loudnessField),
        .loudnessTarget,
        .loudnessTruePeak,
    ]

    private static let speech: [ManifestKey] = [
        ManifestKey("languages", .mapping, doc: "voices for text marked as another language (`lang`/`xml:lang`, `dc:language`), by BCP 47 tag",
                    details: #"A language without an entry gets espeak-ng's voice for it. Tags match as BCP 47 says, case-insensitively: the whole tag, then its shorter forms (`de-AT` → `de`, `zh-Hant-TW` → `zh-Hant` → `zh`), in `languages` and then among the installed voices; a language no voice speaks is read with the voice around it and a warning; `und`, `mul`, `zxx`, `x-…` and an empty `lang=""` switch nothing. A mapped voice that is not installed is an error at `languages.TAG` on its line"#,
                    merge: .perEntry, example: "{ fr: fr-fr }"),
        ManifestKey("languages.*", .voiceOrName, doc: "a voice's name (`fr: fr-fr`) or a voice (`de: { name: de, rate: 0.45 }`) for one language tag", example: "{ name: de, rate: 0.45 }"),
        ManifestKey("language_switching", .choice, range: "true, false, detect", default: "detect", doc: "which text in another language gets its language's voice",
                    details: #"`true`: text marked as another language (`lang`/`xml:lang`) is spoken with its language's voice, and the sidecar lists each such span with its voice. `detect`: also every paragraph with no declared language — or only the document's own (an HTML root's `lang`, an EPUB's `dc:language`: a default, not a certainty) — is identified (CLD2) and, when the identifier is sure (3+ words and 5+ different words; under 8 words only when clearly sure), the language is not the book's and a voice speaks it (`languages` or an installed one), read with that language's voice — the sidecar's paragraph gets `"language"` and `"detected": true`; short paragraphs in a row that lean the same way (a stanza's lines, a song) are judged together (a line of capitalised words, such as a name or a speaker's label, joins none); inside a paragraph, a quotation (`“…”`, `„…“`, `«…»`, `"…"`) of 8+ words and a run of sentences or lines of 12+ words the identifier is clearly sure of are read in their language; `lectern check` counts what was detected and `check --text` shows it (`[fr, detected: fr-fr]`); a `lang` declared in another language than the document's always wins, in the whole block (one restating the document's own language cannot be told from the root's, and is judged). `false`: one voice reads everything"#,
                    example: "detect")
            .reading(languageSwitchingField),
        ManifestKey("lexicons", .textOrList, range: "`.yml` (Lectern's form) or `.pls` (W3C PLS) files", default: "those of `Config/defaults.yml`", doc: "pronunciation lexicons, the first entry for a word wins",
                    details: #"Lectern's YAML form maps `words:` and `patterns:` to a respelling, `[[espeak-ng phonemes]]` or `/IPA/` (see `Config/lexicon/en.yml`). Timings still point at the written words; an entry espeak-ng cannot say (IPA without an equivalent, an unsupported alphabet) is read as written and reported by `check`, `run` and the sidecar's `unpronounced` list; the sidecar lists each hinted stretch of a paragraph under `pronounced`"#,
                    merge: .prepend, example: "[names.yml]"),
        ManifestKey("urls", .choice, values: .choices(of: URLReading.self), default: "domain", doc: "how URLs and e-mail addresses are read",
                    details: #"`domain`: `http://www.gutenberg.net/…` → "gutenberg dot net", an address → "someone at example dot org"; `skip`: silent, still timed; `read`: as written, letter by letter. Part of the spoken forms (`Config/spoken/LANG.yml`, built-in English without a `Config/spoken` folder), which also read Roman numerals ("CHAPTER XIV." → fourteen, "Charles II." → the Second, never the pronoun I), abbreviations in any case (`Dr.`, `DR.` → Doctor) and symbol runs (`* * *` → a pause) as a narrator says them; lexicons and the document's hints win where they overlap"#,
                    example: "read")
            .reading(.choice(\.urls, mustBe: "domain (read as the site's name), skip (silent) or read (as written)")),
    ]

    private static let cast: [ManifestKey] = [
        ManifestKey("cast", .mapping, doc: "a play's voices: each persona (as its speaker label names it) mapped to a voice",
                    details: #"The personae are the speaker labels the reading pass finds — a Gutenberg play's `HAMLET.` alone or at a speech's start, an HTML `span.speaker`/`p.speaker`, a Standard Ebooks `z3998:persona` — compared in capitals without the final period (`LADY MACBETH.`, `Lady Macbeth` and `LADY MACBETH` are one persona). A speech is the blocks after its label up to the next label, a heading, a section break (a scene change) or the chapter's end (an act); the narrator (`voice`) reads headings, stage directions and everything else. A persona's voice is merged over the narrator's, field by field (`{ pitch: 0.8 }` keeps the narrator's name; a name alone keeps the narrator's engine: over a Piper narrator an espeak-ng voice needs `engine: espeak-ng`). Personae the cast does not name get distinct voices from the pool (`cast_pool`), chosen from their names, the same in every run: the most frequent speakers first, each at the pool voice its name's stable hash points to or the next free one, so voices are shared only when there are more personae than pool voices, and a persona added to the play moves no one with more speeches. `cast: {}` gives every persona a pool voice. An entry naming a persona no label names is a warning (a typo?), not an error. Given a cast, speaker labels are silent (`speaker_labels`). The JSON sidecar names each speech's `persona` (and its `voice`), WebVTT cues are `<v Name>` voice spans, the read-along page marks each speech's paragraphs with their persona (`data-persona`) and shows the silent labels, `lectern check --text` shows `[Hamlet — en-gb+m3]` before a speech, and `lectern check` lists the personae with their voices, most speeches first"#,
                    merge: .perEntry, example: "{ HAMLET: { name: en-gb+m3, rate: 0.55 } }"),
        ManifestKey("cast.*", .voiceOrName, doc: "a voice's name (`HAMLET: en-gb+m3`) or a voice (`Ophelia: { name: en-gb+f2, pitch: 1.1 }`) for one persona", example: "{ name: en-gb+m3, pitch: 0.9 }"),
        ManifestKey("cast_pool", .list, range: "voices' names or voices", default: "espeak-ng's variants of the narrator's voice (`+m3`, `+f2`, `+m7`, `+f4`, …) but its own",
                    doc: "the voices personae the cast does not name are given",
                    details: "The default pool is espeak-ng's male and female variants of the narrator's voice, alternating (`en-gb+m3`, `en-gb+f2`, `en-gb+m7`, `en-gb+f4`, `en-gb+m2`, `en-gb+f5`, `en-gb+m4`, `en-gb+f3`, `en-gb+m1`, `en-gb+f1`, `en-gb+m5`, then `+m8`, `+Annie`, `+david`, `+Alicia`, `+ed`, `+aunty`, `+grandpa`, `+belinda`, `+m6`), without the narrator's own variant (a bare voice such as `en-gb` sounds like `+m6`); for a Piper narrator, the other speakers of its model when it has several (`speaker`), else espeak-ng variants of its language. Voices the narrator or the cast already use are left out while the pool has others. Giving `cast_pool` without `cast` casts the play too",
                    example: "[en-gb+f2, { name: en-gb+m3, pitch: 0.9 }]"),
        ManifestKey("speaker_labels", .choice, values: .choices(of: Cast.SpeakerLabels.self), default: "silent with a cast, read without",
                    doc: "whether a play's speaker labels (`HAMLET.`) are spoken",
                    details: "`silent`: the change of voice says who speaks; each label still stands where a reader looks — `lectern check --text` shows `[speaker, silent] HAMLET.` in its place, the sidecar lists it under `skipped` and gives it as the `speakerLabel` of the paragraph after it (nothing of it is timed), and the read-along page and the narrated EPUB show it there, outside the narration. `read`: the narrator says it before the speech (with a cast too)",
                    example: "read")
            .reading(.choice(\.speakerLabels, mustBe: "read (the narrator says each speaker's name) or silent (the voices say who speaks)")),
    ]

    private static let exports: [ManifestKey] = [
        ManifestKey("timings", .list, values: .choices(of: TimingFormat.self), default: "[json]", doc: "the exports written beside the MP3",
                    details: #"`json`: `NAME.timings.json`, the word-timing sidecar. `vtt`: `NAME.vtt`, WebVTT, a cue per sentence with a `<hh:mm:ss.mmm>` timestamp before each word, ids `cN-pN-sN`, a `NOTE` per chapter (`vtt: captions` makes captions instead). `srt`: `NAME.srt`, a cue per sentence, at most two lines of 42 characters, long sentences split at punctuation or word boundaries. `html`: `NAME.html`, a self-contained read-along page — no network — that plays the MP3, highlights the spoken word and sentence, lists the chapters, seeks on a click on a word, and opens at `NAME.html?t=SECONDS`; keys: Space play/pause, ←/→ previous/next sentence, Shift+←/→ previous/next chapter, Tab to the words of the current paragraph and Enter to narrate from one; it remembers where you stopped, per book (`lectern run --readalong` adds it to any job). `epub`: `NAME.epub`, a narrated EPUB 3 — the text with an id on every paragraph, sentence and word, an MP3 per chapter made from the book's own chunks, SMIL media overlays nesting paragraph → sentence → word `par`s with exact clip times; it passes `epubcheck` (give epubcheck 4.2 a larger stack: `java -Xss512m -jar /usr/share/java/epubcheck.jar NAME.epub`). A job whose one source is an EPUB 3 keeps that book's own XHTML, styles, images and navigation and marks the narrated text in place; other inputs get generated XHTML, a document per chapter. The narrated EPUB has its own `dc:identifier` (a `urn:uuid:` derived from the narrated content) with the source's identifier and ISBN kept as `dc:source`, and accessibility metadata as Ace by DAISY checks it. All come from the same sample-exact times and are renamed into place with the MP3"#,
                    example: "[json, vtt]")
            .reading(timingsField),
        ManifestKey("vtt", .choice, values: .choices(of: WebVTTCues.self), default: "sentences", doc: "the WebVTT export's cues: a cue per sentence, or captions",
                    details: "`captions`: cues of at most 2 lines × 42 characters and 7 s, cut at word boundaries — at a sentence's or clause's end when one is near — ids `cN-pN-sN-K`, the word timestamps kept",
                    example: "captions")
            .reading(.choice(\.vtt, mustBe: "sentences (a cue per sentence) or captions (cues of at most 2 lines × 42 characters and 7 s)")),
        ManifestKey("formats", .list, values: .choices(of: AudioFormat.self), default: "[mp3]", doc: "the audio formats the book is written in, from one render",
                    details: #"`mp3`: `NAME.mp3`, MPEG-2 Layer III (LAME) with an ID3v2.3 tag — chapters as CHAP/CTOC, cover, narrator, series, ISBN. `m4b`: `NAME.m4b`, AAC-LC in MP4 (FFmpeg's libraries) with the chapters as a QuickTime chapter track and as Nero `chpl`, the cover as `covr`, iTunes tags (`©nam`, `©alb`, `©ART`, the narrator as `©wrt`, `desc`, `©day`, `©gen`, `cprt`, `stik` = audiobook, and publisher, series and ISBN as freeform atoms) and an edit list for the encoder delay, so chapter times are exact: what Apple Books shows chapters for. `opus`: `NAME.opus`, Ogg Opus (libopusenc) with `CHAPTER001=` / `CHAPTER001NAME=` comments, the cover as `METADATA_BLOCK_PICTURE` and the tags as Vorbis comments. M4B's AAC is encoded at `audio.bitrate` (FFmpeg's fast coder), Opus at half of it (at least 24 kbit/s), as clear on speech as the same encoders run by ffmpeg and opusenc (wideband PESQ, docs/BENCHMARKS.md). Every format has the same chapters, metadata and times (the JSON sidecar's). M4B and Opus are encoded from the chunks' PCM, which the cache then keeps beside each chunk's MP3 stream (FLAC); the MP3 is always rendered, since its frames lay out the book's timeline"#,
                    example: "[mp3, m4b]")
            .reading(formatsField),
        ManifestKey("profile", .choice, values: .choices(of: DeliveryProfile.self), default: "none", doc: "meet a store's delivery rules",
                    details: "`acx`: what ACX (Audible) asks of a production — one MP3 per chapter (`split: chapters-only` unless `split` is given) at 44.1 kHz and 192 kbit/s CBR, mono, levelled to −19 LUFS with true peaks under −3.5 dBTP (`loudness:` unless given; ACX's RMS window is −23 to −18 dB, its peak limit −3 dB), 0.75 s of room tone at each file's head and 2.5 s at its tail (a quiet noise bed at about −70 dB RMS under the whole file: ACX's reviewers reject digital silence), opening and closing credits as files of their own (`credits: true`); ACX allows 120 minutes per file, so a longer chapter is delivered in parts of about equal length, each cut between paragraphs and titled `TITLE (part 1 of 2)`. `lectern check --acx NAME-chapters` measures every rule. The book's sidecar keeps the book's own times; the ACX files' heads are trimmed to their room tone",
                    example: "acx")
            .reading(.choice(\.profile) { "unknown profile \"\($0)\" (this version knows: \(DeliveryProfile.allCases.map(\.rawValue).joined(separator: ", ")))" }),
        ManifestKey("credits", .bool, default: "false (true with a profile)", doc: "read opening and closing credits as chapters of their own",
                    details: "The opening credits say the title, the author and the narrator (`narrator:`, else the speech engine); the closing credits say \"The end\" and the same again, as ACX asks",
                    example: "true")
            .reading(.bool(\.credits)),
        ManifestKey("split", .choice, values: .choices(of: SplitOutput.self), default: "none", doc: "also, or only, the book as one file per chapter, with a playlist",
                    details: "`chapters`: a folder `NAME-chapters/` beside the book's file with one file per chapter in each of `formats`, named `01 - TITLE.mp3` (`.m4b`, `.opus`), tagged with the chapter's title, the book as album, the author, narrator, cover and details, and track n/N; and a playlist per format — `NAME.m3u8` (MP3), `NAME.m4b.m3u8`, `NAME.opus.m3u8` — an extended M3U listing them in order with their lengths. `chapters-only`: the same instead of the book's own files (the JSON sidecar's times are still the book's, chapter after chapter; `timings: [html]` needs the book's file and is refused). The folder is written whole under a temporary name and swapped in, so a chapter removed since the last run leaves no file behind; it lists its files in `.lectern-files`, and a folder of that name that holds an input of the job, or anything Lectern did not write there, is refused by `check` and `run`, naming the file",
                    example: "chapters")
            .reading(.choice(\.split, mustBe: "none (the book as one file), chapters (also one file per chapter and a playlist) or chapters-only (the chapter files and playlist instead of the book's file)")),
    ]

    /// The daemon's defaults, which ``ManifestLoader`` resolves a job's scheduling over.
    private static let scheduling = Scheduling()

    private static let daemon: [ManifestKey] = [
        ManifestKey("schedule", .cron, range: "5 fields, or `@hourly`, `@daily`, `@weekly`, `@monthly`, `@yearly`", doc: "when `lectern daemon` runs the job",
                    details: "A cron expression — `minute hour day-of-month month day-of-week` with `*`, lists, ranges, steps, `JAN`–`DEC`, `SUN`–`SAT`. Vixie cron's rules, including across daylight-saving changes (a fixed time in the skipped hour runs at the change; in the repeated hour it runs once); an expression that can never fire (`0 0 31 2 *`) is an error",
                    example: "'30 2 * * MON-FRI'")
            .reading(scheduleField),
        ManifestKey("timezone", .text, range: "an IANA zone such as `Europe/Berlin`", default: "the machine's", doc: "the time zone the schedule is read in", example: "Europe/Berlin")
            .reading(timeZoneField),
        ManifestKey("watch", .bool, default: String(scheduling.watch), doc: "the daemon re-renders when the manifest, a source, a lexicon or the cover changes (after 2 s without further change)", example: "true")
            .reading(.bool(\.watch)),
        ManifestKey("catchup", .choice, values: .choices(of: CatchUp.self), default: scheduling.catchUp.rawValue, doc: "runs missed while no daemon ran: one run at start, or none", example: "none")
            .reading(.choice(\.catchUp, mustBe: "once (one run for all missed times) or none (skip them)")),
        ManifestKey("retry", .mapping, doc: "a failed daemon run is retried up to `limit` times, after `delay` seconds, doubling each time; then it waits for its next scheduled time", merge: .perEntry, example: "{ limit: 5 }")
            .reading(.mapping),
        ManifestKey("retry.limit", .wholeNumber, values: .wholeNumbers(0...100), default: String(scheduling.retryLimit), doc: "retries of a failed run", example: "5")
            .reading(.wholeNumber(\.retryLimit)),
        ManifestKey("retry.delay", .number, values: .numbers(0.1...86_400), default: ManifestKey.Values.written(scheduling.retryDelay), doc: "seconds before the first retry", example: "60")
            .reading(.number(\.retryDelay)),
        ManifestKey("retry.max_delay", .number, values: .numbers(0.1...604_800), default: ManifestKey.Values.written(scheduling.retryMaxDelay), doc: "the longest wait between retries, in seconds", example: "7200")
            .reading(.number(\.retryMaxDelay)),
        ManifestKey("priority", .wholeNumber, values: .wholeNumbers(-1000...1000), default: String(scheduling.priority), doc: "in a shared store's queue, a job's chunks are claimed before those of jobs with a lower priority", example: "10")
            .reading(.wholeNumber(\.priority)),
        ManifestKey("chunk_attempts", .wholeNumber, values: .wholeNumbers(1...100), default: String(scheduling.chunkAttempts), doc: "attempts a chunk gets in a shared store's queue before it fails, and its run with it", example: "5")
            .reading(.wholeNumber(\.chunkAttempts)),
    ]

    private static let host: [ManifestKey] = [
        ManifestKey("store", .text, range: "`sqlite:PATH` or `postgres://USER@HOST[:PORT]/DB`", doc: "this host's job store, when neither `--store` nor `$LECTERN_STORE` names one",
                    details: "A relative path is read from the `Config` folder", example: "'sqlite:/var/lib/lectern/lectern.sqlite'", onlyInDefaults: true),
        ManifestKey("chunks", .path, doc: "the chunk folder every host reaches, when neither `--chunks` nor `$LECTERN_CHUNKS` names one",
                    details: "A relative path is read from the `Config` folder", example: "/srv/lectern/chunks", onlyInDefaults: true),
    ]
}

/// The keys whose hand-written parsing reads their range from the declaration
/// (`try m.number(.voiceRate)`), named so that it can; ``ManifestSchema/table`` lists them in place.
extension ManifestKey {
    /// `year`.
    static let year = ManifestKey("year", .wholeNumber, values: .wholeNumbers(1...9999), doc: "the same as `date: YYYY`", example: "1865")

    /// `sources[].chapters.level`.
    static let chapterLevel = ManifestKey("sources[].chapters.level", .wholeNumber, values: .wholeNumbers(1...6), default: "1", doc: "headings at or above this level start chapters (HTML: instead of the level the structure pass chooses; EPUB: instead of the table of contents)",
                        merge: .withParent, formats: [.markdown, .html, .epub], example: "2")

    /// `voice.rate`.
    static let voiceRate = ManifestKey("voice.rate", .number, values: .numbers(0...1), default: "0.5", doc: "the speaking rate (AVSpeechUtterance's scale: 0.5 is 175 words per minute)", example: "0.55")

    /// `voice.wpm`.
    static let voiceWPM = ManifestKey("voice.wpm", .wholeNumber, values: .wholeNumbers(ResolvedVoice.minimumWPM...ResolvedVoice.maximumWPM), doc: "the speaking rate in words per minute (not with `rate`)", example: "190")

    /// `voice.pitch`.
    static let voicePitch = ManifestKey("voice.pitch", .number, values: .numbers(0.5...2.0), default: "1.0", doc: "a pitch multiplier (espeak-ng only: a Piper voice has none)", example: "1.1")

    /// `voice.volume`.
    static let voiceVolume = ManifestKey("voice.volume", .number, values: .numbers(0...1), default: "1.0", doc: "the volume", example: "0.9")

    /// `pauses.*.before`.
    static let pauseBefore = ManifestKey("pauses.*.before", .number, values: .numbers(0...60), doc: "seconds of silence before", example: "0.2")

    /// `pauses.*.after`.
    static let pauseAfter = ManifestKey("pauses.*.after", .number, values: .numbers(0...60), doc: "seconds of silence after", example: "0.5")

    /// `loudness.target`.
    static let loudnessTarget = ManifestKey("loudness.target", .number, values: .numbers(-40...(-5)), default: "-18", doc: "the integrated loudness in LUFS", merge: .withParent, example: "-16")

    /// `loudness.true_peak`.
    static let loudnessTruePeak = ManifestKey("loudness.true_peak", .number, values: .numbers(-20...0), default: "-1.5", doc: "the highest true peak in dBTP", merge: .withParent, example: "-3")
}
