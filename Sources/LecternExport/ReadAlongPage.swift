import Foundation

/// A static, self-contained HTML5 read-along page for a narrated book: the MP3 plays while the
/// word and sentence being spoken are highlighted in the text.
///
/// The page needs no network and no server: CSS and JavaScript are inline and the timings are
/// embedded (browsers refuse `fetch()` of `file://`), so it works when opened straight from
/// disk beside the MP3. The text is built in the browser from a compact array form of the
/// sidecar (see ``data(for:)``), which keeps the file near the size of the sidecar's text and
/// numbers even for a book of many hours.
///
/// What the page promises to scripts and tests:
/// - elements are addressed by their index in reading order, counted over the whole book:
///   chapters `c0`, `c1`, … (sections in the text and `a[data-chapter]` links in the chapter
///   list), paragraphs `p0`, …, sentences `s0`, … and words `w0`, …; each sentence and word
///   element holds exactly the paragraph text that its UTF-16 `offset`/`length` names;
/// - the word and the sentence spoken at the current time carry the classes `current-word` and
///   `current-sentence`; in a pause (between words, sentences, paragraphs or chapters) no word is
///   current and the next word to be spoken carries `next-word` instead; the chapter whose span
///   holds the time has its link marked `current-chapter` (and `aria-current`), scrolled into
///   the chapter list's view;
/// - the current word (else the next word) is kept in view: on a seek, while playing (unless the
///   reader scrolled by hand in the last seconds), and across a resize or rotation (unless the
///   reader had scrolled it out of view);
/// - `?t=SECONDS` seeks the audio there on load and highlights at once what is spoken at
///   `round(SECONDS × 1000)` ms, without playing; `body[data-ready="1"]` is set when the text
///   is built and that highlight applied.
/// - keys (none with Ctrl, Alt or Meta; not while a button or form field has the focus): Space
///   plays or pauses (the player's own when it has the focus); ← and → go to the previous or next sentence's start (← in a pause goes back
///   to the sentence just heard); Shift+← and Shift+→ to the previous or next chapter's start.
/// - words are reachable by Tab without putting every word of a long book in the tab order: the
///   words of one paragraph — the one holding the current (or next) word — are tab stops
///   (`tabindex="0"`), the others are not; ←/→ move that paragraph along (and the focus with it
///   when a word has it), and Enter on a word (like a click) moves the narration there.
/// - the position is remembered per book in `localStorage` (under `lectern.position.` and the
///   book's identity: title, author and audio length, so another rendering never inherits a time
///   that means something else in it) on every seek, pause and every few seconds of playing; a
///   later visit without `?t=` offers to continue there (`#resume`, with a Continue and a Start
///   over button) and does not move until the reader chooses.
/// - `<html lang>` is the book's language; a paragraph in another language has its own `lang`.
/// - in a play, a speaker label that is not spoken stands where the book has it, as
///   `p.speaker.silent` (no id, no words: nothing of it is timed); a paragraph of a speech has
///   `data-persona`, the persona's name.
/// - the page writes nothing to the console.
public enum ReadAlongPage {
    /// Renders the page for a book.
    ///
    /// - parameters:
    ///     - document: The book's timing sidecar.
    ///     - audio: The MP3's path relative to where the page will be written (usually the
    ///       sidecar's ``TimingDocument/audio``, with the page beside it); it is percent-encoded
    ///       into the page's URL.
    ///     - language: The book's BCP 47 language, for `<html lang>` (none when nil).
    /// - returns: The page's HTML, to be written as UTF-8.
    public static func html(for document: TimingDocument, audio: String, language: String? = nil) -> String {
        let title = escapeHTML(document.title)
        let source = escapeHTML(audio.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? audio)
        var page = """
            <!DOCTYPE html>
            <html\(language.map { " lang=\"\(escapeHTML($0))\"" } ?? "")>
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="Lectern">
            <link rel="icon" href="data:,">
            <title>\(title)</title>
            <style>
            \(stylesheet)</style>
            </head>
            <body>
            <header>
            <h1>\(title)</h1>

            """
        if let author = document.author { page += "<p class=\"author\">\(escapeHTML(author))</p>\n" }
        page += """
            <audio id="audio" controls preload="metadata" src="\(source)" aria-label="Narration" aria-describedby="keys"></audio>
            <details class="keys"><summary>Keys</summary><p id="keys">Space: play or pause. \u{2190} \u{2192}: previous or next \
            sentence. Shift+\u{2190} Shift+\u{2192}: previous or next chapter. Tab: the words of the current paragraph; \
            Enter: narrate from that word.</p></details>
            <div id="resume" role="region" aria-label="Continue listening" aria-live="polite" hidden><span id="resume-text"></span> \
            <button type="button" id="resume-continue">Continue</button> <button type="button" id="resume-dismiss">Start over</button></div>
            </header>
            <div class="book">
            <nav id="chapters" aria-label="Chapters"><ol></ol></nav>
            <main id="text" aria-label="Text" aria-describedby="keys"><noscript><p>This page needs JavaScript to show the text.</p></noscript></main>
            </div>
            <script type="application/json" id="lectern-data">
            """
        page += data(for: document)
        page += "</script>\n<script>\n" + script + "</script>\n</body>\n</html>\n"
        return page
    }

    /// The sidecar in the compact form the page's script reads: arrays instead of objects, word
    /// and sentence times relative to their paragraph's start, a sentence's words flattened.
    ///
    /// ```
    /// {"v":1,"id":identity,"c":[[title, start, end, [paragraph, …], part?], …]}
    /// paragraph: [kind, text, start, [[offset, length, start, end, [w0.offset, w0.length, w0.start, w0.end, w1.offset, …]], …], language?, persona?, label?]
    /// ```
    /// `identity` names the book and its audio (title, author, sample count), the key of the
    /// remembered position. `part` is the title of the chapter's part, absent when it has none;
    /// consecutive chapters with the same part are listed under it. `language` is the
    /// paragraph's own language when it is not the book's, `persona` who speaks it in a play,
    /// `label` the silent speaker label before it (each null when one after it is given).
    /// `<`, `>` and `&` are written as `\u003c`, `\u003e` and `\u0026` so the text can never
    /// close the `<script>` element it is embedded in.
    static func data(for document: TimingDocument) -> String {
        var out = "{\"v\":1,\"id\":"
        out.reserveCapacity(document.wordCount * 24)
        appendJSONString("\(document.title)\u{1F}\(document.author ?? "")\u{1F}\(document.sampleCount)", to: &out)
        out += ",\"c\":["
        for (c, chapter) in document.chapters.enumerated() {
            if c > 0 { out += "," }
            out += "["
            appendJSONString(chapter.title, to: &out)
            out += ",\(chapter.start),\(chapter.end),["
            for (p, paragraph) in chapter.paragraphs.enumerated() {
                if p > 0 { out += "," }
                let base = paragraph.start
                out += "["
                appendJSONString(paragraph.kind.rawValue, to: &out)
                out += ","
                appendJSONString(paragraph.text, to: &out)
                out += ",\(base),["
                for (s, sentence) in paragraph.sentences.enumerated() {
                    if s > 0 { out += "," }
                    out += "[\(sentence.offset),\(sentence.length),\(sentence.start - base),\(sentence.end - base),["
                    for (w, word) in sentence.words.enumerated() {
                        if w > 0 { out += "," }
                        out += "\(word.offset),\(word.length),\(word.start - base),\(word.end - base)"
                    }
                    out += "]]"
                }
                out += "]"
                let optional = [paragraph.language, paragraph.persona, paragraph.speakerLabel]
                if let last = optional.lastIndex(where: { $0 != nil }) {
                    for value in optional[...last] {
                        out += ","
                        if let value { appendJSONString(value, to: &out) } else { out += "null" }
                    }
                }
                out += "]"
            }
            out += "]"
            if let part = chapter.part {
                out += ","
                appendJSONString(part, to: &out)
            }
            out += "]"
        }
        out += "]}"
        return out
    }

    /// Appends a JSON string literal that is also safe inside an HTML `<script>` element.
    static func appendJSONString(_ string: String, to out: inout String) {
        out += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "<", ">", "&", "\u{2028}", "\u{2029}":
                out += unicodeEscape(scalar.value)
            default:
                if scalar.value < 0x20 { out += unicodeEscape(scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        out += "\""
    }

    private static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }

    /// Escapes text for an HTML text node or a double- or single-quoted attribute value.
    static func escapeHTML(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
