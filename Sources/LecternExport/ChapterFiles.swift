import Foundation
import LecternCore
import LecternAudio

/// `split: chapters`: the book as one MP3 per chapter — made from the book's own chunk streams,
/// nothing re-encoded, each tagged as track n of N with the book as album — in a folder of its
/// own, and an extended M3U playlist listing them in order with their lengths.
///
/// The folder is written whole under a temporary name and swapped in at ``commit()``, so a
/// chapter removed or renamed since the last run leaves no file behind, and a crash leaves the
/// old folder or the new one (and a temporary the next run clears), never half of one.
public final class ChapterFiles {
    public let folder: URL
    let temporary: URL
    let playlist: AtomicFile

    /// One chapter: its title (the file's TIT2 and playlist entry) and its audio.
    public struct Chapter {
        public var title: String
        public var audio: ChapterAudio
        public init(title: String, audio: ChapterAudio) {
            self.title = title
            self.audio = audio
        }
    }

    /// Where the old folder goes while the new one takes its place (cleared right after, or by
    /// the next run's clean-up of temporaries).
    public static func retiredURL(of folder: URL) -> URL {
        AtomicFile.temporaryURL(for: retiredName(of: folder))
    }

    /// The name whose temporaries (`.NAME-chapters-old.PID.tmp`) are old folders moved aside.
    public static func retiredName(of folder: URL) -> URL {
        folder.deletingLastPathComponent().appendingPathComponent(folder.lastPathComponent + "-old")
    }

    /// Writes the chapter files and the playlist under temporary names.
    /// - parameter book: the book's tag; each file gets its fields with the chapter's title and
    ///   its track number, and no chapter marks.
    public init(chapters: [Chapter], book: ID3Tag, sampleRate: Int, folder: URL, playlist: URL) throws {
        self.folder = folder
        temporary = AtomicFile.temporaryURL(for: folder)
        let fm = FileManager.default
        try? fm.removeItem(at: temporary)
        do { try fm.createDirectory(at: temporary, withIntermediateDirectories: true) } catch {
            throw FileError(cannot: "create the chapters' folder", temporary.path, error)
        }
        var entries = "#EXTM3U\n"
        let names = Self.fileNames(chapters.map(\.title))
        do {
            for (i, (chapter, name)) in zip(chapters, names).enumerated() {
                var tag = book
                tag.title = chapter.title
                tag.chapters = []
                tag.track = (i + 1, chapters.count)
                let file = try AtomicFile(temporary.appendingPathComponent(name))
                try MP3BookAssembler.write(tag: tag, parts: chapter.audio.parts, endPadding: chapter.audio.endPadding, to: file)
                try file.commit()
                let seconds = Int((Double(chapter.audio.sampleCount) / Double(sampleRate)).rounded())
                entries += "#EXTINF:\(seconds),\(Self.oneLine(chapter.title))\n\(folder.lastPathComponent)/\(name)\n"
            }
            self.playlist = try AtomicFile(playlist)
            try self.playlist.write(Data(entries.utf8))
            try self.playlist.prepare()
        } catch {
            try? fm.removeItem(at: temporary)
            throw error
        }
    }

    /// Puts the folder and the playlist in place: the old folder is moved aside, the new one
    /// renamed to its name, the old one removed.
    public func commit() throws {
        let fm = FileManager.default
        let retired = Self.retiredURL(of: folder)
        try? fm.removeItem(at: retired)
        if fm.fileExists(atPath: folder.path) || (try? fm.destinationOfSymbolicLink(atPath: folder.path)) != nil {
            guard rename(folder.path, retired.path) == 0 else {
                throw FileError("cannot move the old chapters' folder \(folder.path) aside: \(String(cString: strerror(errno)))")
            }
        }
        guard rename(temporary.path, folder.path) == 0 else {
            throw FileError("cannot put the chapters' folder \(folder.path) in place: \(String(cString: strerror(errno)))")
        }
        AtomicFile.syncFolder(folder.deletingLastPathComponent())
        try playlist.commit()
        try? fm.removeItem(at: retired)
    }

    /// Removes what was written; the folder in place is untouched.
    public func discard() {
        try? FileManager.default.removeItem(at: temporary)
        playlist.discard()
    }

    /// `01 - Title.mp3`: numbered to sort in order (as many digits as the count needs, at least
    /// two), the title without characters a file name cannot hold on common file systems.
    static func fileNames(_ titles: [String]) -> [String] {
        let digits = max(2, String(titles.count).count)
        return titles.enumerated().map { i, title in
            let number = String(repeating: "0", count: max(0, digits - String(i + 1).count)) + String(i + 1)
            var clean = String(title.unicodeScalars.map { s -> Character in
                if s.properties.generalCategory == .control || "/\\:*?\"<>|".unicodeScalars.contains(s) { return " " }
                return Character(s)
            })
            clean = clean.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            clean = String(clean.prefix(80)).trimmingCharacters(in: CharacterSet(charactersIn: ". "))
            return clean.isEmpty ? "\(number).mp3" : "\(number) - \(clean).mp3"
        }
    }

    /// A title on one line for the playlist.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0.isNewline }).joined(separator: " ")
    }
}
