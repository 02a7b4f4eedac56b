import Foundation

/// The XHTML content document of one chapter of a narrated EPUB made from the timing sidecar
/// (for inputs that are not EPUB 3): the chapter's title as its heading, each paragraph as a `p`
/// (`h2` for a heading, a `p` in a `blockquote` for a quote, an `li` for a list item) with an id,
/// and in it a span with an id around each sentence and, inside those, each word.
///
/// Ids are `pN` for paragraph N (from 1), `pNsM` for its sentence M and `pNsMwK` for word K of it;
/// the text between words (spaces, punctuation) stays inside the sentence but outside the words.
/// In a play, a speaker label that is not spoken stands where the book has it, a `p.speaker`
/// without an id: shown, not narrated (no overlay points at it).
public enum EPUBChapterDocument {
    /// The document and, per paragraph, its marks for the media overlay.
    ///
    /// - parameters:
    ///     - chapter: The chapter as the sidecar has it.
    ///     - language: The book's BCP 47 language (the document's `xml:lang`).
    ///     - stylesheet: The stylesheet's href relative to the document.
    public static func xhtml(for chapter: ChapterTiming, language: String, stylesheet: String) -> (xhtml: String, ids: [(id: String, sentences: [MediaOverlay.Sentence])]) {
        let lang = MediaOverlay.escape(language)
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="\(lang)" xml:lang="\(lang)">
            <head>
            <meta charset="utf-8"/>
            <title>\(MediaOverlay.escape(chapter.title))</title>
            <link rel="stylesheet" type="text/css" href="\(MediaOverlay.escape(stylesheet))"/>
            </head>
            <body>
            <section epub:type="chapter" id="chapter">

            """
        var ids: [(String, [MediaOverlay.Sentence])] = []
        let titleSpoken = chapter.paragraphs.first.map { $0.kind == .heading && $0.text == chapter.title } ?? false
        if !titleSpoken { out += "<h1>\(MediaOverlay.escape(chapter.title))</h1>\n" }
        var inList = false
        for (index, paragraph) in chapter.paragraphs.enumerated() {
            let id = "p\(index + 1)"
            if let label = paragraph.speakerLabel {
                if inList { out += "</ul>\n"; inList = false }
                out += "<p class=\"speaker\">\(MediaOverlay.escape(label))</p>\n"
            }
            let (inner, sentences) = marked(paragraph, id: id)
            if paragraph.kind == .listItem, !inList { out += "<ul>\n" }
            if paragraph.kind != .listItem, inList { out += "</ul>\n" }
            inList = paragraph.kind == .listItem
            switch paragraph.kind {
            case .heading:
                let tag = index == 0 && titleSpoken ? "h1" : "h2"
                out += "<\(tag) id=\"\(id)\">\(inner)</\(tag)>\n"
            case .paragraph: out += "<p id=\"\(id)\">\(inner)</p>\n"
            case .quote: out += "<blockquote><p id=\"\(id)\">\(inner)</p></blockquote>\n"
            case .listItem: out += "<li id=\"\(id)\">\(inner)</li>\n"
            case .speaker: out += "<p class=\"speaker\" id=\"\(id)\">\(inner)</p>\n"
            case .stageDirection: out += "<p class=\"stage-direction\" id=\"\(id)\"><i>\(inner)</i></p>\n"
            }
            ids.append((id, sentences))
        }
        if inList { out += "</ul>\n" }
        out += "</section>\n</body>\n</html>\n"
        return (out, ids)
    }

    /// A paragraph's text with spans around its sentences and words.
    static func marked(_ paragraph: ParagraphTiming, id: String) -> (String, [MediaOverlay.Sentence]) {
        let units = Array(paragraph.text.utf16)
        let text = { (from: Int, to: Int) -> String in
            let a = max(0, min(from, units.count)), b = max(a, min(to, units.count))
            return MediaOverlay.escape(String(decoding: units[a..<b], as: UTF16.self))
        }
        let languageAt = { (offset: Int) -> String? in
            paragraph.spans?.first { offset >= $0.offset && offset < $0.offset + $0.length }?.language
        }
        var out = ""
        var position = 0
        var sentences: [MediaOverlay.Sentence] = []
        for (s, sentence) in paragraph.sentences.enumerated() {
            let sid = "\(id)s\(s + 1)"
            out += text(position, sentence.offset) + "<span id=\"\(sid)\">"
            position = sentence.offset
            var words: [String?] = []
            for (w, word) in sentence.words.enumerated() {
                let wid = "\(sid)w\(w + 1)"
                let lang = languageAt(word.offset).map { " lang=\"\(MediaOverlay.escape($0))\" xml:lang=\"\(MediaOverlay.escape($0))\"" } ?? ""
                out += text(position, word.offset) + "<span id=\"\(wid)\"\(lang)>" + text(word.offset, word.offset + word.length) + "</span>"
                position = max(position, word.offset + word.length)
                words.append(wid)
            }
            out += text(position, sentence.offset + sentence.length) + "</span>"
            position = max(position, sentence.offset + sentence.length)
            sentences.append(MediaOverlay.Sentence(id: sid, words: words))
        }
        out += text(position, units.count)
        return (out, sentences)
    }
}
