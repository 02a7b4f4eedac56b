import Foundation
import LecternCore

/// What a package document's `<metadata>` says about the book: Dublin Core title, creator,
/// language, description, subject (the genre), date, publisher, rights and identifiers (the
/// package's own, and an ISBN), and the series as calibre (`calibre:series`,
/// `calibre:series_index`) or EPUB 3 (`belongs-to-collection` refined as a `series` with its
/// `group-position`) writes it.
enum EPUBMetadata {
    static let opfNamespace = "http://www.idpf.org/2007/opf"

    static func read(_ metadata: XMLNode?, uniqueIdentifier: String?) -> BookMetadata {
        guard let metadata else { return BookMetadata() }
        let elements = metadata.all { $0.isElement }  // EPUB 2's optional dc-metadata wrapper included
        let dc = { (name: String) in elements.first { $0.name == name && !$0.textContent.isEmpty }?.textContent }
        var book = BookMetadata(title: dc("title"), author: dc("creator"), language: dc("language"))
        var details = BookDetails()
        details.description = dc("description").map(plainText).flatMap { $0.isEmpty ? nil : $0 }
        details.genre = dc("subject")
        details.publisher = dc("publisher")
        details.copyright = dc("rights")
        // The publication date: an EPUB 2 `opf:event="publication"` one, else the first.
        let dates = elements.filter { $0.name == "date" }
        let published = dates.first { $0.attribute("event", namespace: opfNamespace) == "publication" } ?? dates.first
        details.date = published.flatMap { BookDetails.leadingDate($0.textContent) }

        let identifiers = elements.filter { $0.name == "identifier" && !$0.textContent.isEmpty }
        details.sourceIdentifier = (identifiers.first { uniqueIdentifier != nil && $0["id"] == uniqueIdentifier } ?? identifiers.first)?.textContent
        details.isbn = identifiers.lazy.compactMap { element -> String? in
            let text = element.textContent
            let scheme = element.attribute("scheme", namespace: opfNamespace)?.lowercased()
            let refined = element["id"].flatMap { id in
                elements.first { $0.name == "meta" && $0["refines"] == "#\(id)" && $0["property"] == "identifier-type" }?.textContent
            }
            // A bare number is an ISBN only when it says so or has a 978/979 prefix.
            let declared = scheme == "isbn" || refined?.lowercased().contains("isbn") == true || text.lowercased().hasPrefix("urn:isbn:")
                || text.lowercased().hasPrefix("isbn")
            guard let isbn = BookDetails.isbn(text) else { return nil }
            return declared || isbn.count == 13 ? isbn : nil
        }.first

        let meta = { (name: String) in elements.first { $0.name == "meta" && $0["name"] == name }?["content"].flatMap { $0.isEmpty ? nil : $0 } }
        if let series = meta("calibre:series") {
            details.series = series
            details.seriesIndex = meta("calibre:series_index").flatMap(seriesIndex)
        } else if let collection = elements.first(where: { element in
            guard element.name == "meta", element["property"] == "belongs-to-collection", let id = element["id"] else { return false }
            return elements.contains { $0["refines"] == "#\(id)" && $0["property"] == "collection-type" && $0.textContent == "series" }
        }), !collection.textContent.isEmpty {
            details.series = collection.textContent
            let id = collection["id"] ?? ""
            details.seriesIndex = elements.first { $0["refines"] == "#\(id)" && $0["property"] == "group-position" }
                .flatMap { seriesIndex($0.textContent) }
        }
        book.details = details
        return book
    }

    /// A series index as calibre writes it (`2.0`) without a needless `.0`.
    static func seriesIndex(_ text: String) -> String? {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard let n = Double(t), n >= 0 else { return nil }
        return n == n.rounded() && n < 1_000_000 ? String(Int(n)) : t
    }

    /// A description as calibre writes it (escaped HTML) as plain text.
    static func plainText(_ text: String) -> String {
        guard text.contains("<") else { return text }
        let stripped = text.replacingOccurrences(of: "</?(p|div|br|li|ul|ol|h[1-6]|blockquote)\\b[^>]*>", with: " ", options: [.regularExpression, .caseInsensitive])
            .replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
            .replacingOccurrences(of: "&nbsp;", with: " ").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        return stripped.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
