import Foundation
import Logging
import LecternCore
import LecternDocuments

extension NarratedEPUB {
    /// The EPUB 3 source itself with its narrated text marked and the narration added.
    func writeMarked(_ original: NarratedEPUBPackage, source: Source, audio chapterFiles: [URL], to url: URL) throws -> AtomicFile {
        let folder = (original.packagePath as NSString).deletingLastPathComponent
        let base = folder.isEmpty ? "lectern" : "\(folder)/lectern"
        let stylesheet = "\(base)/overlay.css"
        var owners: [(chapter: Int, timing: ParagraphTiming)] = []
        var paragraphs: [NarratedParagraph] = []
        for (c, chapter) in document.chapters.enumerated() {
            for p in chapter.paragraphs {
                owners.append((c, p))
                paragraphs.append(NarratedParagraph(text: p.text, sentences: p.sentences.map { $0.offset..<($0.offset + $0.length) },
                                                    words: p.sentences.map { $0.words.map { $0.offset..<($0.offset + $0.length) } }))
            }
        }
        let marked = try EPUBTextMarker(source: source).mark(paragraphs, stylesheet: stylesheet)
        let missing = marked.placements.filter { $0 == nil }.count
        if missing > 0 {
            logger.warning("paragraphs not found in the EPUB's XHTML are left out of its media overlays (their audio is in the chapter MP3s)",
                           metadata: ["source": "\(source.displayPath)", "paragraphs": "\(missing)"])
        }
        // One overlay per content document, its paragraphs in the order they are spoken.
        var order: [String] = []
        var grouped: [String: [(placement: ParagraphPlacement, chapter: Int, timing: ParagraphTiming)]] = [:]
        for (placement, owner) in zip(marked.placements, owners) {
            guard let placement else { continue }
            if grouped[placement.document] == nil { order.append(placement.document) }
            grouped[placement.document, default: []].append((placement, owner.chapter, owner.timing))
        }
        var additions = [NarratedEPUBPackage.Addition(path: stylesheet, id: "lectern-overlay-css", mediaType: "text/css",
                                                      data: Data(EPUBPackageDocument.highlightStylesheet.utf8))]
        for (index, file) in chapterFiles.enumerated() {
            additions.append(.init(path: "\(base)/audio/\(Self.chapterName(index)).mp3", id: "lectern-audio-\(index + 1)",
                                   mediaType: "audio/mpeg", file: file))
        }
        for (index, path) in order.enumerated() {
            let smilPath = "\(base)/smil/\(String(format: "%03d", index + 1))-\((path as NSString).lastPathComponent).smil"
            let paragraphs = grouped[path]!.map { entry in
                let audio = chapterAudio[entry.chapter]
                return MediaOverlay.Paragraph(
                    id: entry.placement.id,
                    sentences: entry.placement.sentences.map { MediaOverlay.Sentence(id: $0.id, words: $0.words) },
                    timing: entry.timing,
                    audio: NarratedEPUBPackage.relative("\(base)/audio/\(Self.chapterName(entry.chapter)).mp3", from: smilPath),
                    audioStartMs: Double(audio.startSample) * 1000 / Double(sampleRate),
                    audioLengthMs: Double(audio.sampleCount) * 1000 / Double(sampleRate))
            }
            let overlay = MediaOverlay(text: NarratedEPUBPackage.relative(path, from: smilPath), paragraphs: paragraphs)
            additions.append(.init(path: smilPath, id: "lectern-overlay-\(index + 1)", mediaType: "application/smil+xml",
                                   data: Data(overlay.smil().utf8), narrates: path, durationMs: overlay.durationMs))
        }
        let cover = self.cover
        if let cover {
            additions.append(.init(path: "\(base)/cover.\(cover.mimeType == "image/png" ? "png" : "jpg")", id: "lectern-cover",
                                   mediaType: cover.mimeType, data: cover.data, properties: "cover-image"))
        }
        let publication = publication(hasCover: cover != nil || original.hasCover)
        return try AtomicFile.produced(at: url) { temporary in
            try original.write(to: temporary, replacing: marked.documents, adding: additions,
                               activeClass: EPUBPackageDocument.activeClass, modified: modified, publication: publication)
        }
    }

}
