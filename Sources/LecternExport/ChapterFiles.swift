import Foundation
import LecternCore
import LecternAudio

/// `split: chapters`: the book as one file per chapter in each of its formats, each tagged as
/// track n of N with the book as album, in a folder of its own, and an extended M3U playlist per
/// format listing them in order with their lengths. The MP3s are made from the book's own chunk
/// streams, nothing re-encoded; the other formats' files are encoded from the book's PCM by the
/// caller, into ``fileURL(chapter:format:)``, before ``finish()``.
///
/// The folder is written whole under a temporary name and swapped in at ``commit()``, so a
/// chapter removed or renamed since the last run leaves no file behind, and a crash leaves the
/// old folder or the new one (and a temporary the next run clears), never half of one. It lists
/// its files (``OwnedFolder``): a folder of that name holding anything else is refused, never
/// replaced.
public final class ChapterFiles {
    public let folder: URL
    let temporary: URL
    /// The files, in order.
    public let chapters: [Chapter]
    let names: [String]
    let formats: [AudioFormat]
    let sampleRate: Int
    let playlistURL: (AudioFormat) -> URL
    var playlists: [AtomicFile] = []

    /// One chapter: its title (the file's title and playlist entry) and its audio.
    public struct Chapter {
        public var title: String
        public var audio: ChapterAudio
        public init(title: String, audio: ChapterAudio) {
            self.title = title
            self.audio = audio
        }
    }

    /// The folder as Lectern owns it: a folder of chapter files that lists them, or one an
    /// earlier Lectern wrote (every file named as ``fileNames(_:)`` names them, in a format).
    public static func owned(_ folder: URL) -> OwnedFolder {
        OwnedFolder(folder, role: "the chapters' folder (split: chapters)") { name in
            let formats = AudioFormat.allCases.map { ".\($0.fileExtension)" }
            guard let ext = formats.first(where: { name.hasSuffix($0) }) else { return false }
            let stem = name.dropLast(ext.count)
            let number = stem.prefix { $0.isASCII && $0.isNumber }
            return number.count >= 2 && (stem.count == number.count || stem.dropFirst(number.count).hasPrefix(" - "))
        }
    }

    /// Where the old folder goes while the new one takes its place (cleared right after, or by
    /// the next run's clean-up of temporaries).
    public static func retiredURL(of folder: URL) -> URL {
        AtomicFile.temporaryURL(for: retiredName(of: folder))
    }

    /// The name whose temporaries (`.NAME-chapters-old.PID.RANDOM.tmp`) are old folders moved aside.
    public static func retiredName(of folder: URL) -> URL {
        folder.deletingLastPathComponent().appendingPathComponent(folder.lastPathComponent + "-old")
    }

    /// Creates the temporary folder and writes the MP3 chapter files (when MP3 is one of `formats`).
    /// - parameters:
    ///   - book: the book's metadata; each file gets it with the chapter's title and its track
    ///     number, and no chapter marks (``AudioMetadata/chapterFile(title:number:of:)``).
    ///   - playlist: where each format's playlist goes.
    ///   - assemblesMP3: whether the MP3 files are made here from the chunk streams (false: the
    ///     caller encodes them from the PCM too, as for `profile: acx`).
    public init(chapters: [Chapter], book: AudioMetadata, sampleRate: Int, folder: URL, formats: [AudioFormat] = [.mp3],
                assemblesMP3: Bool = true, playlist: @escaping (AudioFormat) -> URL) throws {
        self.folder = folder
        self.chapters = chapters
        self.formats = formats
        self.sampleRate = sampleRate
        self.playlistURL = playlist
        names = Self.fileNames(chapters.map(\.title))
        temporary = AtomicFile.temporaryURL(for: folder)
        let fm = FileManager.default
        try? fm.removeItem(at: temporary)
        do { try fm.createDirectory(at: temporary, withIntermediateDirectories: true) } catch {
            throw FileError(cannot: "create the chapters' folder", temporary.path, error)
        }
        guard formats.contains(.mp3), assemblesMP3 else { return }
        do {
            for (i, chapter) in chapters.enumerated() {
                let tag = ID3Tag(metadata(book, chapter: i))
                let file = try AtomicFile(fileURL(chapter: i, format: .mp3))
                try MP3BookAssembler.write(tag: tag, parts: chapter.audio.parts, endPadding: chapter.audio.endPadding, to: file)
                try file.commit()
            }
        } catch {
            try? fm.removeItem(at: temporary)
            throw error
        }
    }

    /// The metadata of chapter `index`'s file.
    public func metadata(_ book: AudioMetadata, chapter index: Int) -> AudioMetadata {
        book.chapterFile(title: chapters[index].title, number: index + 1, of: chapters.count)
    }

    /// Where chapter `index`'s file in `format` is written (in the temporary folder).
    public func fileURL(chapter index: Int, format: AudioFormat) -> URL {
        temporary.appendingPathComponent("\(names[index]).\(format.fileExtension)")
    }

    /// Writes the folder's list of its files and each format's playlist under a temporary name,
    /// once every file is in the folder.
    public func finish() throws {
        let list = temporary.appendingPathComponent(OwnedFolder.listName)
        do {
            let files = try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter { $0 != OwnedFolder.listName }
            let file = try AtomicFile(list)
            try file.write(OwnedFolder.list(files))
            try file.commit()
        } catch let error as FileError { throw error } catch {
            throw FileError(cannot: "list", temporary.path, error)
        }
        for format in formats {
            var entries = "#EXTM3U\n"
            for (chapter, name) in zip(chapters, names) {
                let seconds = Int((Double(chapter.audio.sampleCount) / Double(sampleRate)).rounded())
                entries += "#EXTINF:\(seconds),\(Self.oneLine(chapter.title))\n\(folder.lastPathComponent)/\(name).\(format.fileExtension)\n"
            }
            let file = try AtomicFile(playlistURL(format))
            playlists.append(file)
            try file.write(Data(entries.utf8))
            try file.prepare()
        }
    }

    /// Puts the folder and the playlist in place: the old folder is moved aside, the new one
    /// renamed to its name, the old one removed — only when it holds nothing Lectern did not
    /// write (checked again here: a file may have been put there during the run).
    public func commit() throws {
        let fm = FileManager.default
        try Self.owned(folder).check()
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
        for playlist in playlists { try playlist.commit() }
        try? fm.removeItem(at: retired)
    }

    /// Removes what was written; the folder in place is untouched.
    public func discard() {
        try? FileManager.default.removeItem(at: temporary)
        playlists.forEach { $0.discard() }
    }

    /// `01 - Title` (and the format's extension): numbered to sort in order (as many digits as
    /// the count needs, at least two), the title without characters a file name cannot hold on
    /// common file systems. (A podcast feed finds the chapter files by these names.)
    public static func fileNames(_ titles: [String]) -> [String] {
        let digits = max(2, String(titles.count).count)
        return titles.enumerated().map { i, title in
            let number = String(repeating: "0", count: max(0, digits - String(i + 1).count)) + String(i + 1)
            var clean = String(title.unicodeScalars.map { s -> Character in
                if s.properties.generalCategory == .control || "/\\:*?\"<>|".unicodeScalars.contains(s) { return " " }
                return Character(s)
            })
            clean = clean.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            clean = String(clean.prefix(80)).trimmingCharacters(in: CharacterSet(charactersIn: ". "))
            return clean.isEmpty ? number : "\(number) - \(clean)"
        }
    }

    /// A title on one line for the playlist.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0.isNewline }).joined(separator: " ")
    }
}
