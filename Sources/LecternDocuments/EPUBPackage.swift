import Foundation
import LecternCore

/// What an EPUB says about itself: `META-INF/container.xml` → the package document (OPF) → its
/// metadata, manifest, spine (the reading order) and table of contents, from the EPUB 3
/// navigation document (`epub:type="toc"`) or else the EPUB 2 NCX, nested entries included.
package struct EPUBPackage {
    package struct Item {
        var id: String
        /// The item's path inside the zip.
        package var path: String
        package var mediaType: String
        var properties: [String]
    }

    struct SpineItem {
        var item: Item
        var linear: Bool
    }

    /// One table-of-contents entry with a link: a title and the place it points at.
    struct NavEntry {
        var title: String
        var path: String
        var fragment: String?
        var depth: Int
        /// The entry's own text ("I" where ``title`` is "Volume I, I").
        var ownTitle: String = ""
        /// The title of the entry it is nested in when that entry is a file of its own holding none
        /// of its entries (a volume's or a part's title page), unless it is the book's own title (a
        /// half-title page holding every chapter).
        var part: String?
    }

    package var opfPath: String
    /// The package's `version` ("2.0", "3.0" …).
    package var version: String
    var metadata: BookMetadata
    package var coverPath: String?
    package var items: [String: Item]
    var spine: [SpineItem]
    var toc: [NavEntry]
    /// Pronunciation lexicons (PLS) the package lists.
    var lexicons: [Item]

    package static func read(_ archive: EPUBArchive) throws -> EPUBPackage {
        let document = archive.url.path
        func parse(_ path: String) throws -> XMLTree {
            do { return try XMLTree.xml(try archive.data(path), name: path) } catch let error as XMLTree.ParseError {
                throw DocumentError(document: document, message: "\(path) is malformed XML, \(error)")
            }
        }
        guard archive.contains("META-INF/container.xml") else {
            throw DocumentError(document: document, message: "META-INF/container.xml is missing (not an EPUB)")
        }
        let container = try parse("META-INF/container.xml")
        guard let rootfile = container.root?.first(where: { $0.name == "rootfile" && $0["full-path"] != nil })?["full-path"] else {
            throw DocumentError(document: document, message: "META-INF/container.xml names no package document (rootfile)")
        }
        let opfPath = try resolve(rootfile, from: "", document: document)
        guard archive.contains(opfPath) else {
            throw DocumentError(document: document, message: "the package document \(opfPath) named by META-INF/container.xml is missing")
        }
        let opf = try parse(opfPath)
        guard let package = opf.root else { throw DocumentError(document: document, message: "\(opfPath) is empty") }

        var items: [String: Item] = [:]
        for element in package.first(where: { $0.name == "manifest" })?.elements.filter({ $0.name == "item" }) ?? [] {
            guard let id = element["id"], let href = element["href"] else { continue }
            items[id] = Item(id: id, path: try resolve(href, from: opfPath, document: document), mediaType: element["media-type"] ?? "",
                             properties: (element["properties"] ?? "").split(separator: " ").map(String.init))
        }
        guard let spineElement = package.first(where: { $0.name == "spine" }) else {
            throw DocumentError(document: document, message: "\(opfPath) has no spine, so the reading order is unknown")
        }
        var spine: [SpineItem] = []
        for ref in spineElement.elements where ref.name == "itemref" {
            guard let idref = ref["idref"], let item = items[idref] else {
                throw DocumentError(document: document, message: "\(opfPath): the spine refers to \"\(ref["idref"] ?? "")\", which the manifest does not list")
            }
            guard archive.contains(item.path) else {
                throw DocumentError(document: document, message: "\(opfPath): spine item \"\(idref)\" is \(item.path), which is not in the EPUB")
            }
            spine.append(SpineItem(item: item, linear: ref["linear"] != "no"))
        }
        guard !spine.isEmpty else { throw DocumentError(document: document, message: "\(opfPath) has an empty spine: nothing to read") }

        let metadataElement = package.first { $0.name == "metadata" }
        let coverID = metadataElement?.first { $0.name == "meta" && $0["name"] == "cover" }?["content"]
        let cover = items.values.first { $0.properties.contains("cover-image") } ?? coverID.flatMap { items[$0] }
        let metadata = EPUBMetadata.read(metadataElement, uniqueIdentifier: package["unique-identifier"])

        var toc: [NavEntry] = []
        if let nav = items.values.first(where: { $0.properties.contains("nav") }), archive.contains(nav.path) {
            toc = try navigation(parse(nav.path), path: nav.path, document: document, bookTitle: metadata.title)
        }
        if toc.isEmpty, let ncxID = spineElement["toc"] ?? items.values.first(where: { $0.mediaType == "application/x-dtbncx+xml" })?.id,
           let ncx = items[ncxID], archive.contains(ncx.path) {
            toc = try ncxEntries(parse(ncx.path), path: ncx.path, document: document, bookTitle: metadata.title)
        }
        let lexicons = items.values.filter { $0.mediaType == "application/pls+xml" }.sorted { $0.path < $1.path }
        return EPUBPackage(opfPath: opfPath, version: package["version"] ?? "", metadata: metadata, coverPath: cover?.path, items: items, spine: spine, toc: toc,
                           lexicons: lexicons)
    }

    /// The EPUB 3 navigation document's `toc` nav, flattened in order, with nested entries.
    static func navigation(_ tree: XMLTree, path: String, document: String, bookTitle: String? = nil) throws -> [NavEntry] {
        guard let root = tree.root,
              let nav = root.first(where: { $0.name == "nav" && $0.semantics.contains("toc") }) ?? root.first(where: { $0.name == "nav" }),
              let list = nav.first(where: { $0.name == "ol" || $0.name == "ul" }) else { return [] }
        var entries: [NavEntry] = []
        func walk(_ list: XMLNode, depth: Int, parent: String?, parentFile: String? = nil) throws {
            for li in list.elements where li.name == "li" {
                let label = li.elements.first { $0.name == "a" || $0.name == "span" }
                let title = label?.textContent ?? ""
                var own = parent, ownFile: String?
                if let a = label, a.name == "a", let href = a["href"], !title.isEmpty {
                    let (target, fragment) = try resolveLink(href, from: path, document: document)
                    let full = Self.title(title, parent: parent, bookTitle: bookTitle)
                    entries.append(NavEntry(title: full, path: target, fragment: fragment, depth: depth, ownTitle: title,
                                            part: parentFile.flatMap { $0 == target ? nil : Self.part(parent, bookTitle: bookTitle) }))
                    own = full
                    ownFile = (fragment ?? "").isEmpty ? target : nil
                } else if !title.isEmpty {
                    own = title
                }
                for sub in li.elements where sub.name == "ol" || sub.name == "ul" {
                    try walk(sub, depth: depth + 1, parent: own, parentFile: ownFile)
                }
            }
        }
        try walk(list, depth: 1, parent: nil)
        return entries
    }

    /// The EPUB 2 NCX's navMap, flattened in order, with nested navPoints.
    static func ncxEntries(_ tree: XMLTree, path: String, document: String, bookTitle: String? = nil) throws -> [NavEntry] {
        guard let map = tree.root?.first(where: { $0.name == "navmap" }) else { return [] }
        var entries: [NavEntry] = []
        func walk(_ parent: XMLNode, depth: Int, parentTitle: String?, parentFile: String? = nil) throws {
            for point in parent.elements where point.name == "navpoint" {
                let label = point.first { $0.name == "navlabel" }?.textContent ?? ""
                var own = parentTitle, ownFile: String?
                if let src = point.elements.first(where: { $0.name == "content" })?["src"], !label.isEmpty {
                    let (target, fragment) = try resolveLink(src, from: path, document: document)
                    let full = Self.title(label, parent: parentTitle, bookTitle: bookTitle)
                    entries.append(NavEntry(title: full, path: target, fragment: fragment, depth: depth, ownTitle: label,
                                            part: parentFile.flatMap { $0 == target ? nil : Self.part(parentTitle, bookTitle: bookTitle) }))
                    own = full
                    ownFile = (fragment ?? "").isEmpty ? target : nil
                }
                try walk(point, depth: depth + 1, parentTitle: own, parentFile: ownFile)
            }
        }
        try walk(map, depth: 1, parentTitle: nil)
        return entries
    }

    /// A nested entry titled only with a number ("II", "3.") is named with its parent's title
    /// ("Volume II, III"), unless the parent is the book's own title (a half-title page holding
    /// every chapter): the chapter is then titled as the book shows it ("III", not "Emma, III").
    static func title(_ title: String, parent: String?, bookTitle: String? = nil) -> String {
        guard let parent, title.range(of: #"^([IVXLCDM]+|[0-9]+)\.?$"#, options: .regularExpression) != nil else { return title }
        guard part(parent, bookTitle: bookTitle) != nil else { return title }
        return "\(parent), \(title)"
    }

    /// The part an entry nested in `parent` belongs to: none when the parent is the book's own
    /// title ("Jane Eyre" in a book titled "Jane Eyre: An Autobiography" too).
    static func part(_ parent: String?, bookTitle: String?) -> String? {
        guard let parent, !parent.isEmpty else { return nil }
        guard let bookTitle else { return parent }
        let book = [bookTitle, String(bookTitle.prefix { $0 != ":" && $0 != ";" })].map(letters)
        return book.contains(letters(parent)) ? nil : parent
    }

    /// A title's letters and digits, lower-cased, for comparing titles written differently.
    private static func letters(_ title: String) -> String {
        String(title.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }

    /// A link's target path inside the zip and its fragment.
    static func resolveLink(_ href: String, from base: String, document: String) throws -> (String, String?) {
        let parts = href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let target = parts[0].isEmpty ? base : try resolve(String(parts[0]), from: base, document: document)
        return (target, parts.count > 1 ? String(parts[1]).removingPercentEncoding ?? String(parts[1]) : nil)
    }

    /// Resolves `href` (percent-encoded, relative to the file `base`) to a path inside the zip;
    /// a path that climbs out of the book is an error.
    package static func resolve(_ href: String, from base: String, document: String) throws -> String {
        let decoded = href.removingPercentEncoding ?? href
        var parts = decoded.hasPrefix("/") ? [] : base.split(separator: "/").dropLast().map(String.init)
        for piece in decoded.split(separator: "/") {
            switch piece {
            case ".", "": continue
            case "..":
                guard !parts.isEmpty else {
                    throw DocumentError(document: document, message: "the link \"\(href)\" in \(base) points outside the book")
                }
                parts.removeLast()
            default: parts.append(String(piece))
            }
        }
        return parts.joined(separator: "/")
    }
}
