import Foundation
import LecternCore
@testable import LecternDocuments

/// A fresh folder under the system's temporary directory, removed by `remove()`.
struct TempDir {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes raw bytes to `name` inside the folder and returns its URL.
    func write(_ name: String, bytes: [UInt8]) throws -> URL {
        let file = url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A source that is never read from disk (for `read(text:source:)`).
func textSource(_ name: String = "book.txt", heading: String? = nil, subtitle: Bool = false, skipBeforeFirst: Bool = false,
                title: String? = nil, skip: [String] = []) -> Source {
    Source(url: URL(fileURLWithPath: "/nonexistent/\(name)"), displayPath: name, format: .text,
           chapters: ChapterRule(heading: heading, subtitle: subtitle, skipBeforeFirst: skipBeforeFirst, title: title), skip: skip)
}

func markdownSource(_ name: String = "guide.md", level: Int = 1, skipBeforeFirst: Bool = false, skip: [String] = []) -> Source {
    Source(url: URL(fileURLWithPath: "/nonexistent/\(name)"), displayPath: name, format: .markdown,
           chapters: ChapterRule(skipBeforeFirst: skipBeforeFirst, level: level), skip: skip)
}

extension Chapter {
    /// The blocks as (kind, text) pairs, for compact expectations.
    var pairs: [[String]] { blocks.map { [$0.kind.rawValue, $0.text] } }
}

/// A book read from an HTML page written for the test: the whole page, or a body wrapped in one.
enum HTMLPage {
    static func read(_ html: String, name: String = "page.html", rules: ReadingRules = ReadingRules()) throws -> Book {
        let dir = try TempDir()
        defer { dir.remove() }
        let url = try dir.write(name, bytes: Array(html.utf8))
        return try HTMLReader().read(Source(url: url, displayPath: name, format: .html, rules: rules))
    }

    static func body(_ body: String, title: String = "Book") throws -> Book {
        try read("<html lang=\"en\"><head><title>\(title)</title></head><body>\(body)</body></html>")
    }
}
