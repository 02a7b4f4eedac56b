import Foundation
import LecternCore

/// Writes the JSON timing sidecar while the book renders, one paragraph at a time, so memory
/// does not grow with the book. The file is written under a temporary name and renamed into
/// place by ``commit(sampleCount:wordCount:skipped:)``; it decodes as a ``TimingDocument``.
public final class TimingSidecarWriter {
    private let file: AtomicFile
    private let encoder: JSONEncoder
    private let sampleRate: Int
    private var firstChapter = true
    private var firstParagraph = true
    private var buffer = Data()
    /// The parts so far, the last one still open while its chapters come.
    private var parts: [PartTiming] = []
    /// Whether the chapter before this one was in the last of `parts`.
    private var inPart = false

    public init(url: URL, title: String, author: String?, audio: String, sampleRate: Int) throws {
        file = try AtomicFile(url)
        self.sampleRate = sampleRate
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let units = TimingDocument.Units()
        var head = "{\"format\":\"lectern-timings\",\"version\":\(TimingDocument.currentVersion)"
        head += ",\"units\":" + (try json(units))
        head += ",\"title\":" + (try json(title))
        if let author { head += ",\"author\":" + (try json(author)) }
        head += ",\"audio\":" + (try json(audio)) + ",\"sampleRate\":\(sampleRate),\"chapters\":["
        buffer.append(Data(head.utf8))
    }

    /// Starts a chapter; its paragraphs follow, then ``endChapter(end:)``. A chapter with the
    /// same `part` as the chapter before it joins that chapter's part; another part starts a new one.
    public func beginChapter(number: Int, title: String, start: Int, part: String? = nil) throws {
        let prefix = firstChapter ? "" : ","
        firstChapter = false
        firstParagraph = true
        var head = "\(prefix){\"number\":\(number),\"title\":\(try json(title))"
        if let part {
            head += ",\"part\":" + (try json(part))
            if inPart, parts[parts.count - 1].title == part {
                parts[parts.count - 1].chapters.append(number)
            } else {
                parts.append(PartTiming(title: part, start: start, end: start, chapters: [number]))
            }
        }
        inPart = part != nil
        head += ",\"start\":\(start),\"paragraphs\":["
        buffer.append(Data(head.utf8))
    }

    public func append(_ paragraph: ParagraphTiming) throws {
        if !firstParagraph { buffer.append(Data(",".utf8)) }
        firstParagraph = false
        guard paragraph.sentences.reduce(0, { $0 + $1.words.count }) > Self.wordsEncodedAtOnce else {
            buffer.append(try encoder.encode(paragraph))
            if buffer.count > 1 << 16 { try flush() }
            return
        }
        // A huge paragraph is encoded a sentence (and a huge sentence a batch of words) at a time,
        // with the same bytes as at once: the encoder's intermediate form of it all would be
        // many times its size.
        var outline = paragraph
        outline.sentences = []
        try appendSpliced(try encoder.encode(outline), at: "\"sentences\":[", items: paragraph.sentences) { sentence in
            guard sentence.words.count > Self.wordsEncodedAtOnce else { return buffer.append(try encoder.encode(sentence)) }
            var outline = sentence
            outline.words = []
            let batches = stride(from: 0, to: sentence.words.count, by: Self.wordsEncodedAtOnce).map {
                Array(sentence.words[$0..<min($0 + Self.wordsEncodedAtOnce, sentence.words.count)])
            }
            try appendSpliced(try encoder.encode(outline), at: "\"words\":[", items: batches) { batch in
                // A batch's array without its brackets: its words, comma-separated.
                buffer.append(try encoder.encode(batch).dropFirst().dropLast())
            }
        }
    }

    /// Words encoded by one call of the encoder.
    static let wordsEncodedAtOnce = 2000

    /// Appends `json` (an object whose array at `key` is empty), with `encode` called for each of
    /// `items` to write that array's elements, separated by commas. A key cannot occur inside a
    /// string value of the JSON (its quotes would be escaped there), so its first occurrence is it.
    private func appendSpliced<T>(_ json: Data, at key: String, items: [T], encode: (T) throws -> Void) throws {
        let marker = Data((key + "]").utf8)
        // The encoder always writes the key; were it missing, the array would be left out, not garbled.
        let found = json.range(of: marker) ?? (json.endIndex..<json.endIndex)
        buffer.append(json[json.startIndex..<found.lowerBound])
        guard !found.isEmpty else { return }
        buffer.append(Data(key.utf8))
        for (i, item) in items.enumerated() {
            if i > 0 { buffer.append(Data(",".utf8)) }
            try encode(item)
            if buffer.count > 1 << 16 { try flush() }
        }
        buffer.append(json[(found.upperBound - 1)...])
    }

    public func endChapter(end: Int) throws {
        if inPart { parts[parts.count - 1].end = end }
        buffer.append(Data("],\"end\":\(end)}".utf8))
    }

    /// Writes the totals and the skipped text, syncs and renames the file into place.
    public func commit(sampleCount: Int, wordCount: Int, skipped: [SkippedText], unpronounced: [PronunciationNote] = []) throws {
        try finish(sampleCount: sampleCount, wordCount: wordCount, skipped: skipped, unpronounced: unpronounced)
        try commit()
    }

    /// Writes the parts, the totals, the skipped text and the pronunciation hints that could not
    /// be honoured, and syncs the file, leaving it under its temporary name until ``commit()``.
    public func finish(sampleCount: Int, wordCount: Int, skipped: [SkippedText], unpronounced: [PronunciationNote] = []) throws {
        let duration = Int((Double(sampleCount) * 1000 / Double(sampleRate)).rounded())
        var tail = "]"
        if !parts.isEmpty { tail += ",\"parts\":" + (try json(parts)) }
        tail += ",\"skipped\":" + (try json(skipped)) + ",\"unpronounced\":" + (try json(unpronounced)) + ",\"sampleCount\":\(sampleCount),\"durationMs\":\(duration),\"wordCount\":\(wordCount)}"
        buffer.append(Data(tail.utf8))
        try flush()
        try file.prepare()
    }

    /// Where the file is until ``commit()``.
    public var temporaryURL: URL { file.temporaryURL }

    /// Renames the finished file into place.
    public func commit() throws { try file.commit() }

    /// Abandons the file (the previous sidecar, if any, stays).
    public func discard() { file.discard() }

    private func flush() throws {
        try file.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    private func json<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
