import Foundation
import LecternCore

/// Reads a source document's bytes and the files it links, each through ``LinkedFile``: a source
/// only when it is a regular file of at most ``Source/maxBytes``; a linked file only when it also
/// lies in the source's ``Source/linkRoots``.
enum SourceFile {
    /// The source's bytes.
    ///
    /// - throws: ``DocumentError`` naming the source: `cannot read the file: it does not exist`, …
    static func contents(_ source: Source) throws -> Data {
        do { return try LinkedFile(roots: [], maxBytes: Source.maxBytes).read(source.url) } catch {
            throw DocumentError(document: source.url.path, message: "cannot read the file: it \(error.reason)")
        }
    }

    /// The first `count` bytes of the source, to recognise what it holds.
    static func head(_ source: Source, count: Int) throws -> Data {
        do { return try LinkedFile(roots: [], maxBytes: Source.maxBytes).head(source.url, count: count) } catch {
            throw DocumentError(document: source.url.path, message: "cannot read the file: it \(error.reason)")
        }
    }

    /// The bytes of a file the source links (`href` as written, percent-encoded, relative to the
    /// source's folder), at most `maxBytes` of them.
    ///
    /// - throws: ``LinkedFile/Refusal`` (outside the source's folders, missing, not a regular
    ///   file, too large), whose reason the caller reports with the link as written.
    static func linked(_ href: String, from source: Source, maxBytes: Int) throws(LinkedFile.Refusal) -> Data {
        try LinkedFile(roots: source.linkRoots, maxBytes: maxBytes).read(url(href, from: source))
    }

    /// Where a link points (`href` as written, relative to the source's folder), for
    /// ``Book/linkedFiles`` and ``linked(_:from:maxBytes:)``.
    static func url(_ href: String, from source: Source) -> URL {
        URL(fileURLWithPath: href.removingPercentEncoding ?? href, relativeTo: source.url.deletingLastPathComponent()).standardizedFileURL
    }
}
