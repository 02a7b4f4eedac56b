import Foundation
import ZIPFoundation
import LecternCore
import LecternDocuments

/// An EPUB 3 re-packaged with its narration: every file of the original is kept as it was
/// (content documents replaced by their marked versions), the overlays, audio and stylesheet
/// are added, and the package document is edited to name them: a manifest item each,
/// `media-overlay` on the narrated content documents, `media:duration` per overlay and in total,
/// `media:active-class`, and a new `dcterms:modified`; an NCX kept beside the nav gets the new
/// identifier as its `dtb:uid`. The book's own media overlays of the documents narrated are
/// replaced (their SMIL files left out, the audio they played kept).
public struct NarratedEPUBPackage {
    /// A file added to the publication.
    public struct Addition {
        /// Its path inside the archive.
        public var path: String
        public var id: String
        public var mediaType: String
        public var data: Data?
        public var file: URL?
        /// For an overlay: the content document it narrates (path inside the archive) and its duration.
        public var narrates: String?
        public var durationMs: Int?
        /// The item's `properties` (`cover-image`).
        public var properties: String?

        public init(path: String, id: String, mediaType: String, data: Data? = nil, file: URL? = nil, narrates: String? = nil, durationMs: Int? = nil,
                    properties: String? = nil) {
            self.path = path
            self.id = id
            self.mediaType = mediaType
            self.data = data
            self.file = file
            self.narrates = narrates
            self.durationMs = durationMs
            self.properties = properties
        }
    }

    let archive: EPUBArchive
    let package: EPUBPackage

    /// The package document's path inside the archive.
    public var packagePath: String { package.opfPath }
    /// Whether the book has a cover image of its own.
    public var hasCover: Bool { package.coverPath != nil }
    /// Whether the book is an EPUB 3 (whose XHTML can carry media overlays as it is).
    public var isEPUB3: Bool { package.version.hasPrefix("3") }

    public init(source: URL) throws {
        archive = try EPUBArchive.open(source)
        package = try EPUBPackage.read(archive)
    }

    /// The archive path of `href` written in the document at `from`.
    public static func relative(_ path: String, from document: String) -> String {
        let base = document.split(separator: "/").dropLast()
        let target = path.split(separator: "/")
        var common = 0
        while common < base.count, common < target.count - 1, base[base.startIndex + common] == target[common] { common += 1 }
        return (Array(repeating: "..", count: base.count - common) + target[common...].map(String.init)).joined(separator: "/")
    }

    /// Writes the narrated publication to a new archive at `url` (which must not exist).
    ///
    /// - parameters:
    ///     - replacing: New bytes for original files (the marked content documents), by path.
    ///     - adding: The narration's files.
    ///     - activeClass: The class reading systems set on the element being spoken.
    ///     - publication: The narrated book's identifier, narrator and accessibility metadata.
    public func write(to url: URL, replacing: [String: Data], adding: [Addition], activeClass: String, modified: Date,
                      publication: NarratedPublication) throws {
        let opf = try editedPackage(adding: adding, activeClass: activeClass, modified: modified, publication: publication)
        let ncxPaths = ncxPaths
        let leftOut = try replacedOverlayPaths(adding: adding)
        let out = try Archive(url: url, accessMode: .create)
        func add(_ path: String, _ data: Data, compressed: Bool = true) throws {
            try out.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), modificationDate: modified,
                             compressionMethod: compressed ? .deflate : .none) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        try add("mimetype", Data("application/epub+zip".utf8), compressed: false)
        for path in archive.paths where path != "mimetype" && !path.hasSuffix("/") && !leftOut.contains(path) {
            if path == package.opfPath {
                try add(path, opf)
            } else if ncxPaths.contains(path) {
                try add(path, try editedNCX(path, identifier: publication.identifier))
            } else {
                try add(path, try replacing[path] ?? archive.data(path))
            }
        }
        for addition in adding {
            if let data = addition.data {
                try add(addition.path, data)
            } else if let file = addition.file {
                try out.addEntry(with: addition.path, fileURL: file, compressionMethod: .none)
            }
        }
    }

    /// The archive paths of the book's own overlays that the narration replaces.
    func replacedOverlayPaths(adding: [Addition]) throws -> Set<String> {
        guard let manifest = try? XMLTree.xml(try archive.data(package.opfPath), name: package.opfPath).root?.first(where: { $0.name == "manifest" })
        else { return [] }
        return Set(replacedOverlays(manifest, narrated: Set(adding.compactMap(\.narrates))).values)
    }

    /// The package document with the narration named in it.
    func editedPackage(adding: [Addition], activeClass: String, modified: Date, publication: NarratedPublication) throws -> Data {
        let tree: XMLTree
        do { tree = try XMLTree.xml(try archive.data(package.opfPath), name: package.opfPath) } catch let error as XMLTree.ParseError {
            throw DocumentError(document: archive.url.path, message: "\(package.opfPath) is malformed, \(error)")
        }
        guard let root = tree.root, let metadata = root.first(where: { $0.name == "metadata" }),
              let manifest = root.first(where: { $0.name == "manifest" }) else {
            throw DocumentError(document: archive.url.path, message: "\(package.opfPath) has no metadata or manifest")
        }
        var ids = Set(root.all { $0["id"] != nil }.compactMap { $0["id"] })
        for addition in adding where ids.contains(addition.id) {
            throw DocumentError(document: archive.url.path, message: "\(package.opfPath) already has an item with the id \(addition.id)")
        }
        ids.formUnion(adding.map(\.id))
        let overlays = Dictionary(adding.compactMap { a in a.narrates.map { ($0, a.id) } }, uniquingKeysWith: { a, _ in a })
        let replaced = replacedOverlays(manifest, narrated: Set(overlays.keys))
        let keptOverlayMs = removeReplacedOverlays(replaced, manifest: manifest, metadata: metadata)
        for item in manifest.elements where item.name == "item" {
            guard let href = item["href"], let path = try? EPUBPackage.resolve(href, from: package.opfPath, document: archive.url.path),
                  let overlay = overlays[path] else { continue }
            item.setAttribute("media-overlay", overlay)
        }
        if adding.contains(where: { $0.properties?.split(separator: " ").contains("cover-image") == true }) {
            // One cover: the book's own gives way to the manifest's.
            for item in manifest.elements where item.name == "item" {
                guard let properties = item["properties"], properties.split(separator: " ").contains("cover-image") else { continue }
                let rest = properties.split(separator: " ").filter { $0 != "cover-image" }.joined(separator: " ")
                if rest.isEmpty { item.removeAttribute("properties") } else { item.setAttribute("properties", rest) }
            }
            for meta in metadata.elements where meta.name == "meta" && meta["name"] == "cover" { meta.unlink() }
        }
        for addition in adding {
            let href = Self.relative(addition.path, from: package.opfPath)
            let item = manifest.appendElement("item")
            item.setAttribute("id", addition.id)
            item.setAttribute("href", href.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? href)
            item.setAttribute("media-type", addition.mediaType)
            if let properties = addition.properties { item.setAttribute("properties", properties) }
        }
        try identify(metadata, root: root, as: publication)
        let stamp = EPUBValues.timestamp(modified)
        if let existing = metadata.elements.first(where: { $0.name == "meta" && $0["property"] == "dcterms:modified" }) {
            existing.setText(stamp)
        } else {
            metadata.appendElement("meta", text: stamp, property: "dcterms:modified")
        }
        var total = keptOverlayMs
        for addition in adding {
            guard let ms = addition.durationMs else { continue }
            total += ms
            metadata.appendElement("meta", text: EPUBValues.clock(ms), property: "media:duration").setAttribute("refines", "#\(addition.id)")
        }
        metadata.appendElement("meta", text: EPUBValues.clock(total), property: "media:duration")
        metadata.appendElement("meta", text: publication.narrator, property: "media:narrator")
        metadata.appendElement("meta", text: activeClass, property: "media:active-class")
        do { return try tree.xmlData(declaration: #"<?xml version="1.0" encoding="UTF-8"?>"#) } catch {
            throw DocumentError(document: archive.url.path, message: "cannot write \(package.opfPath): \(error)")
        }
    }
}

extension NarratedEPUBPackage {
    /// Gives the package the narrated book's identifier, keeping the book's own as `dc:source`,
    /// and adds the accessibility metadata the book does not state yet (a summary of its own is
    /// kept, with the narration's appended).
    func identify(_ metadata: XMLNode, root: XMLNode, as publication: NarratedPublication) throws {
        let uniqueID = root["unique-identifier"]
        let identifiers = metadata.elements.filter { $0.name == "identifier" }
        guard let own = identifiers.first(where: { uniqueID != nil && $0["id"] == uniqueID }) ?? identifiers.first else {
            throw DocumentError(document: archive.url.path, message: "\(package.opfPath) has no dc:identifier")
        }
        let original = own.textContent
        own.setText(publication.identifier)
        var sources = Set(metadata.elements.filter { $0.name == "source" }.map(\.textContent))
        var last = own
        for source in [original] + publication.sources where !source.isEmpty && !sources.contains(source) && source != publication.identifier {
            last = last.insertSibling("source", text: source)
            sources.insert(source)
        }
        let stated = Set(metadata.elements.filter { $0.name == "meta" && $0["refines"] == nil }.map { "\($0["property"] ?? "") \($0.textContent)" })
        let summary = metadata.elements.first { $0.name == "meta" && $0["property"] == "schema:accessibilitySummary" && $0["refines"] == nil }
        for meta in publication.accessibility where !stated.contains("\(meta.property) \(meta.value)") {
            if meta.property == "schema:accessibilitySummary", let summary {
                summary.setText(summary.textContent + " " + meta.value)
            } else {
                metadata.appendElement("meta", text: meta.value, property: meta.property)
            }
        }
    }
}
