import Foundation
import LecternCore

/// The front and back matter an EPUB's package points at: the EPUB 3 navigation document's
/// `landmarks` nav (`<a epub:type="copyright-page" href="…">`) and EPUB 2's `<guide>`
/// (`<reference type="title-page" href="…"/>`), each entry a whole spine document or, with a
/// fragment, the element with that id (a heading or anchor there stands for its section).
struct EPUBLandmarks {
    struct Entry: Equatable {
        var kind: BookMatter
        var path: String
        var fragment: String?
    }

    var entries: [Entry] = []
    /// The first spine document the landmarks call the body (`bodymatter`), if any.
    var bodyPath: String?

    /// The matter a whole document is (a landmark without a fragment).
    func kind(ofDocument path: String) -> BookMatter? {
        entries.first { $0.path == path && ($0.fragment ?? "").isEmpty }?.kind
    }

    /// The fragments of `path` that are matter.
    func fragments(in path: String) -> [(id: String, kind: BookMatter)] {
        entries.compactMap { $0.path == path && !($0.fragment ?? "").isEmpty ? ($0.fragment!, $0.kind) : nil }
    }

    /// Reads the landmarks of the package's nav document and the OPF's guide; an unreadable or
    /// missing one adds nothing (the book is still read).
    static func read(_ archive: EPUBArchive, _ package: EPUBPackage) -> EPUBLandmarks {
        var landmarks = EPUBLandmarks()
        func add(type: String, href: String, from base: String) {
            guard let (path, fragment) = try? EPUBPackage.resolveLink(href, from: base, document: archive.url.path) else { return }
            if type.split(separator: " ").contains("bodymatter") || type == "text" {
                if landmarks.bodyPath == nil, fragment == nil { landmarks.bodyPath = path }
                return
            }
            guard let kind = type.split(separator: " ").lazy.compactMap({ BookMatter(type: String($0)) }).first else { return }
            landmarks.entries.append(Entry(kind: kind, path: path, fragment: fragment))
        }
        if let nav = package.items.values.first(where: { $0.properties.contains("nav") }), archive.contains(nav.path),
           let tree = try? XMLTree.xml(try archive.data(nav.path), name: nav.path),
           let list = tree.root?.first(where: { $0.name == "nav" && $0.semantics.contains("landmarks") }) {
            for a in list.all(where: { $0.name == "a" }) {
                if let href = a["href"], let type = a.attribute("type", namespace: XMLNode.opsNamespace) { add(type: type, href: href, from: nav.path) }
            }
        }
        if let opf = try? XMLTree.xml(try archive.data(package.opfPath), name: package.opfPath),
           let guide = opf.root?.first(where: { $0.name == "guide" }) {
            for reference in guide.elements where reference.name == "reference" {
                if let href = reference["href"], let type = reference["type"] { add(type: type, href: href, from: package.opfPath) }
            }
        }
        return landmarks
    }
}
