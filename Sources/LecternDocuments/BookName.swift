import Foundation
import LecternCore

/// The title and author a book names itself by, for a job made from documents alone (`lectern
/// serve`'s form with no title): what the readers find (an EPUB's `dc:title`/`dc:creator`, a
/// Project Gutenberg header's `Title:`/`Author:`, an HTML page's `dc.title` or `<title>`, a plain
/// title page's `By NAME`), the first document's name only when nothing names it.
/// `lectern run BOOK`, `check BOOK` and `init BOOK` take the same from the book they read
/// (``Book/metadata``, filled into the manifest by `Manifest.filling(from:)`).
public enum BookName {
    public static func of(_ documents: [URL]) -> BookMetadata {
        guard let first = documents.first else { return BookMetadata() }
        let sources = documents.map { Source(url: $0, displayPath: $0.lastPathComponent, format: Source.format(forExtension: $0.pathExtension)) }
        let recognised = (try? DocumentReader.recognised(sources)) ?? sources
        var metadata = (try? DocumentReader().read(recognised))?.metadata ?? BookMetadata()
        if metadata.title?.trimmingCharacters(in: .whitespaces).isEmpty ?? true { metadata.title = fileTitle(first) }
        return metadata
    }

    /// A title from a file's name: `pride_and-prejudice.txt` → `pride and prejudice`.
    public static func fileTitle(_ url: URL) -> String {
        url.deletingPathExtension().lastPathComponent.replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: "-", with: " ")
    }
}
