import Foundation
import LecternCore
import LecternDocuments

extension NarratedEPUBPackage {
    /// The archive paths of the book's EPUB 2 NCX files (kept for older reading systems).
    var ncxPaths: Set<String> {
        Set(package.items.values.filter { $0.mediaType == "application/x-dtbncx+xml" }.map(\.path))
    }

    /// The NCX at `path` with its `dtb:uid` set to the narrated book's identifier, edited through
    /// libxml2 as the package document is: the NCX's uid must be the package's unique identifier
    /// (epubcheck NCX-001), and the package now carries the narration's.
    func editedNCX(_ path: String, identifier: String) throws -> Data {
        let tree: XMLTree
        do { tree = try XMLTree.xml(try archive.data(path), name: path) } catch let error as XMLTree.ParseError {
            throw DocumentError(document: archive.url.path, message: "\(path) (the NCX) is malformed, \(error)")
        }
        guard let head = tree.root?.elements.first(where: { $0.name == "head" }) else {
            throw DocumentError(document: archive.url.path, message: "\(path) (the NCX) has no head to carry its dtb:uid")
        }
        if let uid = head.elements.first(where: { $0.name == "meta" && $0["name"] == "dtb:uid" }) {
            uid.setAttribute("content", identifier)
        } else {
            let uid = head.appendElement("meta")
            uid.setAttribute("name", "dtb:uid")
            uid.setAttribute("content", identifier)
        }
        do { return try tree.xmlData(declaration: #"<?xml version="1.0" encoding="UTF-8"?>"#) } catch {
            throw DocumentError(document: archive.url.path, message: "cannot write \(path): \(error)")
        }
    }
}
