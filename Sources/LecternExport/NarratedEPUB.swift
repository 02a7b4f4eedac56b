import Foundation
import Logging
import ZIPFoundation
import LecternCore
import LecternDocuments
import LecternAudio

/// Writes a job's narrated EPUB 3 (`NAME.epub`): the text with an id on every paragraph, sentence
/// and word, an MP3 per chapter concatenated from the book's own chunk streams (nothing is
/// re-encoded, so its times are the book's shifted by the chapter's start), and a SMIL media
/// overlay per content document whose clips come from the sidecar's times.
///
/// A job whose one source is an EPUB 3 keeps that book: its XHTML, styling, images and
/// navigation stay, the narrated text is marked in place (``EPUBTextMarker``), and overlays, audio
/// and a highlight stylesheet are added (``NarratedEPUBPackage``). For other inputs the text is
/// generated from the sidecar (``EPUBChapterDocument``), one document per chapter.
///
/// The archive is written under a temporary name and synced; the caller renames it into place
/// with the other outputs.
struct NarratedEPUB {
    let document: TimingDocument
    let manifest: Manifest
    /// The book's BCP 47 language.
    let language: String
    /// Each sidecar chapter's audio, in the same order.
    let chapterAudio: [ChapterAudio]
    let sampleRate: Int
    /// Where the chapter MP3s are put together before they go into the archive.
    let workDirectory: URL
    /// `dcterms:modified`, and the entries' dates.
    let modified: Date
    /// The manifest's cover (checked), for the EPUB's cover image.
    let cover: ID3Tag.Picture?
    let logger: Logger

    /// A file of the archive, relative to the package document.
    private struct Entry {
        var href: String
        var data: Data?
        var file: URL?
        var item: EPUBPackageDocument.Item
    }

    static let packageFolder = "EPUB"

    /// Writes the archive (synced, not yet renamed into place).
    func write(to url: URL) throws -> AtomicFile {
        guard document.chapters.count == chapterAudio.count else {
            throw ExportError("the sidecar has \(document.chapters.count) chapters but the audio \(chapterAudio.count)")
        }
        var chapterFiles: [URL] = []
        defer { for f in chapterFiles { try? FileManager.default.removeItem(at: f) } }
        for (index, (chapter, audio)) in zip(document.chapters, chapterAudio).enumerated() {
            let file = try chapterMP3(audio, title: chapter.title, name: Self.chapterName(index))
            chapterFiles.append(file)
            // The archive dates a file entry by the file's own time: the same date as every other entry.
            try? FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: file.path)
        }
        if manifest.sources.count == 1, let source = manifest.sources.first, source.format == .epub {
            let original = try NarratedEPUBPackage(source: source.url)
            if original.isEPUB3 { return try writeMarked(original, source: source, audio: chapterFiles, to: url) }
            logger.notice("the EPUB is not an EPUB 3, so the narrated EPUB's text is made from the sidecar", metadata: ["source": "\(source.displayPath)"])
        }
        return try writeGenerated(audio: chapterFiles, to: url)
    }

    static func chapterName(_ index: Int) -> String { String(format: "chapter-%03d", index + 1) }

    /// The EPUB for a book that was not an EPUB 3: one generated document per chapter.
    private func writeGenerated(audio chapterFiles: [URL], to url: URL) throws -> AtomicFile {
        var entries: [Entry] = []
        var spine: [String] = []
        var navigation: [(title: String, href: String, part: String?)] = []
        var sections: [[(title: String, href: String)]] = []

        entries.append(Entry(href: "style.css", data: Data(EPUBPackageDocument.stylesheet.utf8),
                             item: .init(id: "css", href: "style.css", mediaType: "text/css")))
        for (index, (chapter, audio)) in zip(document.chapters, chapterAudio).enumerated() {
            let name = Self.chapterName(index)
            let mp3 = chapterFiles[index]
            let (xhtml, ids) = EPUBChapterDocument.xhtml(for: chapter, language: language, stylesheet: "../style.css")
            let startMs = Double(audio.startSample) * 1000 / Double(sampleRate)
            let paragraphs = zip(chapter.paragraphs, ids).map { timing, marks in
                MediaOverlay.Paragraph(id: marks.id, sentences: marks.sentences, timing: timing, audio: "../audio/\(name).mp3",
                                       audioStartMs: startMs, audioLengthMs: Double(audio.sampleCount) * 1000 / Double(sampleRate))
            }
            let overlay = MediaOverlay(text: "../text/\(name).xhtml", paragraphs: paragraphs)
            entries.append(Entry(href: "audio/\(name).mp3", file: mp3, item: .init(id: "a-\(name)", href: "audio/\(name).mp3", mediaType: "audio/mpeg")))
            entries.append(Entry(href: "smil/\(name).smil", data: Data(overlay.smil().utf8),
                                 item: .init(id: "mo-\(name)", href: "smil/\(name).smil", mediaType: "application/smil+xml",
                                             durationMs: overlay.durationMs)))
            entries.append(Entry(href: "text/\(name).xhtml", data: Data(xhtml.utf8),
                                 item: .init(id: name, href: "text/\(name).xhtml", mediaType: "application/xhtml+xml", mediaOverlay: "mo-\(name)")))
            spine.append(name)
            // A section's heading is paragraph N's `pN` in the chapter's document (EPUBChapterDocument).
            sections.append(chapter.paragraphs.enumerated().filter { $0.element.section == true }.map {
                (title: $0.element.text, href: "text/\(name).xhtml#p\($0.offset + 1)")
            })
            navigation.append((chapter.title, "text/\(name).xhtml", chapter.part))
        }
        let nav = EPUBPackageDocument.navigation(title: document.title, language: language, chapters: navigation, sections: sections)
        entries.insert(Entry(href: "nav.xhtml", data: Data(nav.utf8),
                             item: .init(id: "nav", href: "nav.xhtml", mediaType: "application/xhtml+xml", properties: "nav")), at: 0)
        let cover = self.cover
        if let cover {
            let href = "images/cover.\(cover.mimeType == "image/png" ? "png" : "jpg")"
            entries.append(Entry(href: href, data: cover.data,
                                 item: .init(id: "cover-image", href: href, mediaType: cover.mimeType, properties: "cover-image")))
        }
        let package = EPUBPackageDocument(publication: publication(hasCover: cover != nil), title: document.title, author: document.author,
                                          language: language, details: manifest.details, modified: modified,
                                          items: entries.map(\.item), spine: spine)
        return try AtomicFile.produced(at: url) { temporary in
            let archive = try Archive(url: temporary, accessMode: .create)
            try add("mimetype", Data("application/epub+zip".utf8), to: archive, compressed: false)
            try add("META-INF/container.xml", Data(EPUBPackageDocument.container(packagePath: "\(Self.packageFolder)/package.opf").utf8), to: archive)
            try add("\(Self.packageFolder)/package.opf", Data(package.opf().utf8), to: archive)
            for entry in entries {
                let path = "\(Self.packageFolder)/\(entry.href)"
                if let data = entry.data {
                    try add(path, data, to: archive)
                } else if let file = entry.file {
                    try archive.addEntry(with: path, fileURL: file, compressionMethod: .none)
                }
            }
        }
    }

    /// The publication's identifier (from the sidecar's content: title, author, and every
    /// chapter's and paragraph's text, voice and times, so the same narration gets the same one),
    /// the source's identifiers, the narrator and the accessibility metadata.
    func publication(hasCover: Bool) -> NarratedPublication {
        var hasher = SHA256()
        hasher.update("lectern-epub 2\n\(document.title.utf8.count) \(document.title)\n\((document.author ?? "").utf8.count) \(document.author ?? "")\n")
        for chapter in document.chapters {
            hasher.update("chapter \(chapter.start) \(chapter.end) \(chapter.title.utf8.count) \(chapter.title)\n")
            for p in chapter.paragraphs { hasher.update("p \(p.start) \(p.end) \(p.voice) \(p.text.utf8.count) \(p.text)\n") }
        }
        return NarratedPublication(contentHash: hasher.hexDigest(), details: manifest.details, hasCover: hasCover)
    }

    private func chapterMP3(_ audio: ChapterAudio, title: String, name: String) throws -> URL {
        let file = try AtomicFile(workDirectory.appendingPathComponent("\(name).mp3"))
        let tag = ID3Tag(title: title, artist: document.author, album: document.title, padding: 0)
        try MP3BookAssembler.write(tag: tag, parts: audio.parts, endPadding: audio.endPadding, to: file)
        try file.commit()
        return file.url
    }

    private func add(_ path: String, _ data: Data, to archive: Archive, compressed: Bool = true) throws {
        try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), modificationDate: modified,
                             compressionMethod: compressed ? .deflate : .none) { position, size in
            data.subdata(in: Int(position)..<Int(position) + size)
        }
    }
}
