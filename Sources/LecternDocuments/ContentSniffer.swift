import Foundation
import LecternCore
import ZIPFoundation

/// Recognises what a source holds by its bytes, not only its name, so that only what Lectern can
/// read is read: a PDF, a Word document, an image, audio, a program or random bytes is refused
/// with the words for what it looks like, never decoded as Windows-1252 and narrated.
///
/// What it recognises: magic bytes (PDF, ZIP — an EPUB, a DOCX, an ODF document or another
/// archive —, PNG, JPEG, GIF, WebP, MP3, Ogg, FLAC, WAV, MP4/M4A, ELF, PE, MOBI/AZW, RTF,
/// Word 97 and gzip), then NUL bytes and the share of control characters (binary data). A page
/// of HTML or an EPUB named otherwise (`.txt`, no extension) is read as what it is, unless the
/// source's `format:` says how to read it.
public enum ContentSniffer {
    /// How many bytes from the start are looked at.
    static let headBytes = 64 << 10

    /// The format to read the source in: its own when its content agrees, HTML or EPUB when the
    /// content is that and no `format:` was given.
    ///
    /// - throws: ``DocumentError`` naming the source and what it holds when that is not text in a
    ///   format Lectern reads (`a PDF document: not read yet`), or when it cannot be read.
    public static func format(of source: Source) throws -> Source.Format {
        let head = [UInt8](try SourceFile.head(source, count: headBytes))
        let given = source.keyLines["format"] != nil
        func refuse(_ what: String) -> DocumentError {
            DocumentError(document: source.url.path, message: "\(what) — Lectern reads plain text, Markdown, HTML and EPUB files")
        }
        if isZip(head) {
            if let kind = zipKind(source.url) { throw refuse(kind) }
            guard source.format == .epub || !given else {
                throw DocumentError(document: source.url.path, message: "an EPUB (a ZIP archive), not \(source.format.rawValue): remove the source's `format:` or set it to epub")
            }
            return .epub
        }
        if let kind = binaryKind(head) { throw refuse(kind) }
        if source.format == .epub {
            throw DocumentError(document: source.url.path, message: "not an EPUB: the file holds text, not a ZIP archive; give the source's `format:` (text, markdown or html)")
        }
        if !given, source.format != .html, looksLikeHTML(head) { return .html }
        return source.format
    }

    /// Whether the bytes start a ZIP archive (a local file header, or the end record of an empty one).
    static func isZip(_ b: [UInt8]) -> Bool {
        b.starts(with: [0x50, 0x4B, 0x03, 0x04]) || b.starts(with: [0x50, 0x4B, 0x05, 0x06])
    }

    /// What a ZIP archive holds when it is not an EPUB (nil: an EPUB, or a damaged archive, which
    /// the EPUB reader refuses in its own words).
    static func zipKind(_ url: URL) -> String? {
        let archive: Archive
        do { archive = try Archive(url: url, accessMode: .read) } catch { return nil }
        var paths: [String] = []
        var mimetype: String?
        for entry in archive {
            paths.append(entry.path)
            if entry.path == "mimetype", entry.uncompressedSize < 200 {
                var data = Data()
                _ = try? archive.extract(entry, skipCRC32: true) { data.append($0) }
                mimetype = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            }
            if paths.count > 10_000 { break }
        }
        if mimetype == "application/epub+zip" || paths.contains("META-INF/container.xml") { return nil }
        if paths.contains(where: { $0.hasPrefix("word/") }) { return "a Word document (DOCX): not read yet" }
        if paths.contains(where: { $0.hasPrefix("xl/") }) { return "an Excel workbook (XLSX)" }
        if paths.contains(where: { $0.hasPrefix("ppt/") }) { return "a PowerPoint presentation (PPTX)" }
        if let mimetype, mimetype.hasPrefix("application/vnd.oasis.opendocument") {
            return mimetype.hasSuffix(".text") ? "an OpenDocument text (ODT): not read yet" : "an OpenDocument file (\(mimetype))"
        }
        return "a ZIP archive (not an EPUB)"
    }

    /// What binary data the bytes start, by their magic or their make (nil: text).
    static func binaryKind(_ b: [UInt8]) -> String? {
        func at(_ offset: Int, _ ascii: String) -> Bool {
            let bytes = Array(ascii.utf8)
            return b.count >= offset + bytes.count && Array(b[offset..<(offset + bytes.count)]) == bytes
        }
        let utf16 = b.starts(with: [0xFF, 0xFE]) || b.starts(with: [0xFE, 0xFF])
        if at(0, "%PDF-") { return "a PDF document: not read yet" }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "a PNG image" }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return "a JPEG image" }
        if at(0, "GIF87a") || at(0, "GIF89a") { return "a GIF image" }
        if at(0, "RIFF"), at(8, "WEBP") { return "a WebP image" }
        if at(0, "RIFF"), at(8, "WAVE") { return "WAV audio" }
        if (at(0, "ID3") && b.count > 3 && (2...4).contains(b[3])) || (!utf16 && b.count >= 2 && b[0] == 0xFF && b[1] & 0xE0 == 0xE0 && b[1] & 0x06 != 0) { return "MP3 audio" }
        if at(0, "OggS") { return "Ogg audio" }
        if at(0, "fLaC") { return "FLAC audio" }
        if at(4, "ftyp") { return "MP4 audio or video (M4A, M4B, MP4)" }
        if b.starts(with: [0x7F, 0x45, 0x4C, 0x46]) { return "an executable program (ELF)" }
        if at(0, "MZ"), b.prefix(1024).contains(0) { return "a Windows executable (PE)" }
        if at(60, "BOOKMOBI") { return "a MOBI/AZW e-book: not read yet" }
        if at(60, "TEXtREAd") { return "a PalmDOC e-book: not read yet" }
        if at(0, "{\\rtf") { return "an RTF document: not read yet" }
        if b.starts(with: [0xD0, 0xCF, 0x11, 0xE0]) { return "a Word 97–2003 document (DOC): not read yet" }
        if b.starts(with: [0x1F, 0x8B]) { return "gzip-compressed data" }
        if utf16 { return nil }
        if b.contains(0) { return "binary data (NUL bytes)" }
        // Text has tabs, line and page breaks, and the odd escape; binary data has control bytes throughout.
        let controls = b.reduce(0) { $0 + (($1 < 0x20 && ![0x09, 0x0A, 0x0C, 0x0D, 0x1B].contains($1)) || $1 == 0x7F ? 1 : 0) }
        if controls > 8, controls * 100 > b.count { return "binary data (control bytes)" }
        return nil
    }

    /// Whether text starts as an HTML page does (`<!DOCTYPE html`, `<html`, or XML then `<html`).
    static func looksLikeHTML(_ b: [UInt8]) -> Bool {
        let start = b.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let text = String(decoding: b[start..<min(b.count, start + 1024)], as: UTF8.self).lowercased()
        let trimmed = text.drop { $0.isWhitespace }
        if trimmed.hasPrefix("<!doctype html") || trimmed.hasPrefix("<html") { return true }
        if trimmed.hasPrefix("<?xml") { return trimmed.contains("<html") || trimmed.contains("<!doctype html") }
        return false
    }
}
