import Foundation
import LecternCore
import LecternDocuments

extension NarratedEPUBPackage {
    /// The book's own media overlays that the narration replaces: those of the content documents
    /// it narrates (a content document may have only one overlay, epubcheck MED-011/MED-012),
    /// by manifest id, with their archive paths. Their SMIL files are left out of the narrated
    /// EPUB; the audio they played stays, as it was.
    func replacedOverlays(_ manifest: XMLNode, narrated: Set<String>) -> [String: String] {
        var ids = Set<String>()
        for item in manifest.elements where item.name == "item" {
            guard let overlay = item["media-overlay"], let href = item["href"],
                  let path = try? EPUBPackage.resolve(href, from: package.opfPath, document: archive.url.path),
                  narrated.contains(path) else { continue }
            ids.insert(overlay)
        }
        // An overlay that also narrates a document the narration leaves alone is kept.
        for item in manifest.elements where item.name == "item" {
            guard let overlay = item["media-overlay"], let href = item["href"],
                  let path = try? EPUBPackage.resolve(href, from: package.opfPath, document: archive.url.path),
                  !narrated.contains(path) else { continue }
            ids.remove(overlay)
        }
        var result: [String: String] = [:]
        for item in manifest.elements where item.name == "item" {
            guard let id = item["id"], ids.contains(id), let href = item["href"],
                  let path = try? EPUBPackage.resolve(href, from: package.opfPath, document: archive.url.path) else { continue }
            result[id] = path
        }
        return result
    }

    /// Removes the replaced overlays' manifest items and their `media:duration`s, and the book's
    /// own total duration, active class and narrator (the narration states its own).
    /// - returns: The summed durations of the book's overlays that stay, in ms.
    func removeReplacedOverlays(_ replaced: [String: String], manifest: XMLNode, metadata: XMLNode) -> Int {
        for item in manifest.elements where item.name == "item" && replaced[item["id"] ?? ""] != nil { item.unlink() }
        let othersStay = manifest.elements.contains { $0["media-overlay"].map { replaced[$0] == nil } ?? false }
        var kept = 0
        for meta in metadata.elements where meta.name == "meta" {
            switch meta["property"] {
            case "media:duration":
                guard let refines = meta["refines"] else { meta.unlink(); continue }
                if replaced[String(refines.drop { $0 == "#" })] != nil { meta.unlink() } else { kept += Self.clockMs(meta.textContent) ?? 0 }
            case "media:active-class":
                meta.unlink()
            case "media:narrator" where !othersStay && !replaced.isEmpty:
                meta.unlink()
            default:
                continue
            }
        }
        return kept
    }

    /// A SMIL clock value in ms: `h:mm:ss.fff`, `mm:ss.fff`, or a timecount (`12.5s`, `500ms`,
    /// `2min`, `1h`, a bare number of seconds).
    static func clockMs(_ text: String) -> Int? {
        let value = text.trimmingCharacters(in: .whitespaces)
        if value.contains(":") {
            let parts = value.split(separator: ":").map { Double($0) }
            guard parts.allSatisfy({ $0 != nil }), (2...3).contains(parts.count) else { return nil }
            let seconds = parts.reduce(0.0) { $0 * 60 + $1! }
            return Int((seconds * 1000).rounded())
        }
        for (suffix, scale) in [("ms", 1.0), ("min", 60_000.0), ("h", 3_600_000.0), ("s", 1000.0), ("", 1000.0)] where value.hasSuffix(suffix) {
            guard let number = Double(value.dropLast(suffix.count)) else { continue }
            return Int((number * scale).rounded())
        }
        return nil
    }
}
