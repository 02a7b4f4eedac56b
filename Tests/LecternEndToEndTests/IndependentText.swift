import Foundation
import Testing
import LecternTesting

/// The text of an EPUB or HTML file as a reader that shares no code with Lectern's finds it:
/// Python's `zipfile`, `xml.etree` and `html.parser`, to hold Lectern's sidecar against.
///
/// An EPUB is followed from `META-INF/container.xml` to the package document, then through
/// *every* spine item in spine order, linear or not (Lectern lists the non-linear ones as
/// skipped); an HTML file is one page. Of each page it takes the body's character data, with a
/// word break at the edges of every element that is not phrasing content (`p`, `div`, `li`,
/// `td`, `h1`, `br` …), as a browser lays the page out.
///
/// What it leaves out, because it is never shown as text: the `<head>` (title, metadata),
/// `<script>`, `<style>` and `<template>`, comments, processing instructions and the doctype,
/// and attribute values — except the two that stand for text a reader sees: an image's `alt`,
/// and the page number of a page-break marker that has no content (its `title`, else its
/// `aria-label`). Everything else in a body is kept, including navigation, contents lists,
/// tables, code and Project Gutenberg's boilerplate: Lectern must read each word of it or list
/// it as skipped.
///
/// What it keeps apart from the running text, as `labels`: note-reference marks
/// (`epub:type="noteref"` or `role="doc-noteref"`), page-break markers (`pagebreak`,
/// `doc-pagebreak`) and images' alt text. They stand outside the sentence they sit in; left in
/// place, a mark would glue onto the word before it ("Savannah<a>1</a>" → "Savannah1"), a word
/// no reader sees. So the running text reads "Savannah" and the labels hold "1".
struct IndependentText: Decodable {
    struct Document: Decodable {
        var path: String
        var linear: Bool
        var text: String
        var labels: [String]
    }

    struct NavEntry: Decodable {
        var title: String
        var path: String
        var fragment: String?
    }

    /// The spine's documents in order (one for an HTML file).
    var documents: [Document]
    /// The links of the EPUB 3 navigation document's `toc` nav, in document order, nested ones
    /// included (empty for HTML and for an EPUB 2 book).
    var toc: [NavEntry]

    /// Every word there is to account for: each document's running text, then its labels.
    var text: String { documents.map { ([$0.text] + $0.labels).joined(separator: "\n") }.joined(separator: "\n") }

    /// Extracts `file` (`.epub`, else HTML) with `python3`.
    static func of(_ file: URL) throws -> IndependentText {
        let result = try Tool.run("python3", ["-c", script, file.path])
        guard result.status == 0 else { throw TestFailure("python3 could not extract \(file.path): \(result.stderr)") }
        return try JSONDecoder().decode(IndependentText.self, from: Data(result.stdout.utf8))
    }

    static let script = #"""
        import json, posixpath, sys, urllib.parse, zipfile
        import xml.etree.ElementTree as ET
        from html.parser import HTMLParser

        SILENT = {"head", "script", "style", "template"}
        # Phrasing content: text on either side runs on without a break. Any other element breaks.
        INLINE = {"a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "data", "del", "dfn", "em", "font", "i", "ins",
                  "kbd", "label", "mark", "q", "rp", "rt", "ruby", "s", "samp", "small", "span", "strike", "strong", "sub",
                  "sup", "time", "tt", "u", "var", "wbr"}
        VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"}
        LABELS = {"noteref", "pagebreak"}

        class Text(HTMLParser):
            def __init__(self):
                super().__init__(convert_charrefs=True)
                self.parts, self.labels, self.silent, self.label = [], [], 0, None  # label: [tag, depth, text, fallback]

            def handle_starttag(self, tag, attrs):
                tag, attrs = tag.split(":")[-1], dict(attrs)
                if self.label is not None:
                    if tag == self.label[0]: self.label[1] += 1
                    return
                kinds = set((attrs.get("epub:type") or "").split())
                kinds |= {r[4:] for r in (attrs.get("role") or "").split() if r.startswith("doc-")}
                if kinds & LABELS and tag not in VOID:
                    self.label = [tag, 1, [], attrs.get("title") or attrs.get("aria-label") or ""]
                    return
                if tag in SILENT: self.silent += 1
                if tag not in INLINE: self.parts.append(" ")
                if tag == "img": self.labels.append(attrs.get("alt") or "")

            def handle_startendtag(self, tag, attrs):
                self.handle_starttag(tag, attrs)
                self.handle_endtag(tag)

            def handle_endtag(self, tag):
                tag = tag.split(":")[-1]
                if self.label is not None:
                    if tag == self.label[0]:
                        self.label[1] -= 1
                        if self.label[1] == 0:
                            self.labels.append("".join(self.label[2]).strip() or self.label[3])
                            self.label = None
                    return
                if tag in SILENT and self.silent: self.silent -= 1
                if tag not in INLINE: self.parts.append(" ")

            def handle_data(self, data):
                if self.label is not None: self.label[2].append(data)
                elif not self.silent: self.parts.append(data)

        def page(data, path, linear=True):
            p = Text()
            p.feed(data.decode("utf-8"))
            p.close()
            return {"path": path, "linear": linear, "text": "".join(p.parts), "labels": p.labels}

        def joined(base, href):
            return posixpath.normpath(posixpath.join(posixpath.dirname(base), urllib.parse.unquote(href)))

        def epub(file):
            z = zipfile.ZipFile(file)
            container = ET.fromstring(z.read("META-INF/container.xml"))
            opf_path = next(container.iter("{urn:oasis:names:tc:opendocument:xmlns:container}rootfile")).get("full-path")
            opf = ET.fromstring(z.read(opf_path))
            OPF = "{http://www.idpf.org/2007/opf}"
            items = {i.get("id"): (joined(opf_path, i.get("href")), (i.get("properties") or "").split()) for i in opf.iter(OPF + "item")}
            documents = []
            for ref in opf.iter(OPF + "itemref"):
                path = items[ref.get("idref")][0]
                documents.append(page(z.read(path), path, ref.get("linear") != "no"))
            toc = []
            for nav_path in [path for path, properties in items.values() if "nav" in properties][:1]:
                XHTML, OPS = "{http://www.w3.org/1999/xhtml}", "{http://www.idpf.org/2007/ops}"
                navs = [n for n in ET.fromstring(z.read(nav_path)).iter(XHTML + "nav") if "toc" in (n.get(OPS + "type") or "").split()]
                for a in navs[0].iter(XHTML + "a") if navs else []:
                    target, _, fragment = (a.get("href") or "").partition("#")
                    toc.append({"title": " ".join("".join(a.itertext()).split()),
                                "path": joined(nav_path, target) if target else nav_path, "fragment": fragment or None})
            return {"documents": documents, "toc": toc}

        file = sys.argv[1]
        if file.endswith(".epub"):
            result = epub(file)
        else:
            result = {"documents": [page(open(file, "rb").read(), file)], "toc": []}
        json.dump(result, sys.stdout, ensure_ascii=False)
        """#
}
