import Foundation
import LecternCore

/// The package document (OPF) of a narrated EPUB 3 that Lectern makes from the sidecar, with its
/// navigation document, container file and overlay stylesheet.
///
/// Every content document with a media overlay names it (`media-overlay`), each overlay's
/// `media:duration` refines it and the total is the book's, and `media:active-class` names the
/// class a reading system puts on the element being spoken (styled in ``stylesheet``). It has an
/// identifier of its own, the book's details as Dublin Core and a series collection, and
/// accessibility metadata (``NarratedPublication``).
public struct EPUBPackageDocument: Sendable {
    /// A file of the publication, relative to the package document.
    public struct Item: Sendable {
        public var id: String
        public var href: String
        public var mediaType: String
        public var properties: String?
        public var mediaOverlay: String?
        /// For an overlay: its duration in milliseconds.
        public var durationMs: Int?

        public init(id: String, href: String, mediaType: String, properties: String? = nil, mediaOverlay: String? = nil, durationMs: Int? = nil) {
            self.id = id
            self.href = href
            self.mediaType = mediaType
            self.properties = properties
            self.mediaOverlay = mediaOverlay
            self.durationMs = durationMs
        }
    }

    /// Its identifier, sources, narrator and accessibility metadata.
    public var publication: NarratedPublication
    public var identifier: String { publication.identifier }
    public var title: String
    public var author: String?
    public var language: String
    /// Description, subject (genre), date, publisher, rights and series.
    public var details: BookDetails
    public var modified: Date
    public var items: [Item]
    /// The ids of the spine's items, in reading order.
    public var spine: [String]

    public init(publication: NarratedPublication, title: String, author: String?, language: String, details: BookDetails = BookDetails(),
                modified: Date, items: [Item], spine: [String]) {
        self.publication = publication
        self.title = title
        self.author = author
        self.language = language
        self.details = details
        self.modified = modified
        self.items = items
        self.spine = spine
    }

    /// The class reading systems set on the element being spoken.
    public static let activeClass = "-epub-media-overlay-active"

    /// The stylesheet added to a marked EPUB: only the highlight, so the book's own styling stays.
    public static let highlightStylesheet = ".\(activeClass) { background-color: #ffe58a; color: inherit; border-radius: 0.15em; }\n"

    /// The stylesheet of the generated text, with the highlight of the spoken element.
    public static let stylesheet = """
        body { font-family: serif; line-height: 1.5; margin: 1em 5%; }
        h1, h2 { font-family: sans-serif; }

        """ + highlightStylesheet

    /// `META-INF/container.xml` pointing at the package document.
    public static func container(packagePath: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
        <rootfiles><rootfile full-path="\(MediaOverlay.escape(packagePath))" media-type="application/oebps-package+xml"/></rootfiles>
        </container>

        """
    }

    /// The navigation document: a table of contents of the chapters, those of a part (consecutive
    /// chapters with the same `part`) listed under the part's title, and each chapter's sections
    /// (`sections[i]`: its section headings' titles and hrefs) listed under the chapter.
    public static func navigation(title: String, language: String, chapters: [(title: String, href: String, part: String?)],
                                  sections: [[(title: String, href: String)]] = []) -> String {
        let lang = MediaOverlay.escape(language)
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="\(lang)" xml:lang="\(lang)">
            <head><meta charset="utf-8"/><title>\(MediaOverlay.escape(title))</title></head>
            <body>
            <nav epub:type="toc" id="toc"><h1>Contents</h1>
            <ol>

            """
        var openPart: String?
        for (index, chapter) in chapters.enumerated() {
            if openPart != nil, chapter.part != openPart {
                out += "</ol></li>\n"
                openPart = nil
            }
            if let part = chapter.part, openPart == nil {
                out += "<li><span>\(MediaOverlay.escape(part))</span>\n<ol>\n"
                openPart = part
            }
            out += "<li><a href=\"\(MediaOverlay.escape(chapter.href))\">\(MediaOverlay.escape(chapter.title))</a>"
            if index < sections.count, !sections[index].isEmpty {
                out += "\n<ol>\n"
                for section in sections[index] {
                    out += "<li><a href=\"\(MediaOverlay.escape(section.href))\">\(MediaOverlay.escape(section.title))</a></li>\n"
                }
                out += "</ol>\n"
            }
            out += "</li>\n"
        }
        if openPart != nil { out += "</ol></li>\n" }
        out += "</ol>\n</nav>\n</body>\n</html>\n"
        return out
    }

    /// The package document.
    public func opf() -> String {
        let e = MediaOverlay.escape
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid" xml:lang="\(e(language))">
            <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
            <dc:identifier id="uid">\(e(identifier))</dc:identifier>
            <dc:title>\(e(title))</dc:title>
            <dc:language>\(e(language))</dc:language>

            """
        if let author { out += "<dc:creator>\(e(author))</dc:creator>\n" }
        for source in publication.sources { out += "<dc:source>\(e(source))</dc:source>\n" }
        if let description = details.description { out += "<dc:description>\(e(description))</dc:description>\n" }
        if let genre = details.genre { out += "<dc:subject>\(e(genre))</dc:subject>\n" }
        if let date = details.date { out += "<dc:date>\(e(date))</dc:date>\n" }
        if let publisher = details.publisher { out += "<dc:publisher>\(e(publisher))</dc:publisher>\n" }
        if let copyright = details.copyright { out += "<dc:rights>\(e(copyright))</dc:rights>\n" }
        if let series = details.series {
            out += "<meta property=\"belongs-to-collection\" id=\"series\">\(e(series))</meta>\n"
            out += "<meta refines=\"#series\" property=\"collection-type\">series</meta>\n"
            if let index = details.seriesIndex { out += "<meta refines=\"#series\" property=\"group-position\">\(e(index))</meta>\n" }
        }
        out += "<meta property=\"dcterms:modified\">\(EPUBValues.timestamp(modified))</meta>\n"
        for meta in publication.accessibility { out += "<meta property=\"\(meta.property)\">\(e(meta.value))</meta>\n" }
        let overlays = items.filter { $0.durationMs != nil }
        for item in overlays {
            out += "<meta property=\"media:duration\" refines=\"#\(e(item.id))\">\(EPUBValues.clock(item.durationMs!))</meta>\n"
        }
        out += "<meta property=\"media:duration\">\(EPUBValues.clock(overlays.reduce(0) { $0 + $1.durationMs! }))</meta>\n"
        out += "<meta property=\"media:narrator\">\(e(publication.narrator))</meta>\n"
        out += "<meta property=\"media:active-class\">\(Self.activeClass)</meta>\n"
        out += "</metadata>\n<manifest>\n"
        for item in items {
            out += "<item id=\"\(e(item.id))\" href=\"\(e(item.href))\" media-type=\"\(e(item.mediaType))\""
            if let p = item.properties { out += " properties=\"\(e(p))\"" }
            if let m = item.mediaOverlay { out += " media-overlay=\"\(e(m))\"" }
            out += "/>\n"
        }
        out += "</manifest>\n<spine>\n"
        for id in spine { out += "<itemref idref=\"\(e(id))\"/>\n" }
        out += "</spine>\n</package>\n"
        return out
    }
}
