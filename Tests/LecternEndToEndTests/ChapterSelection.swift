import Foundation
import Testing
import LecternTesting

/// A book's chapters as `lectern check` reads them from a manifest — title, part, words and the
/// narration script of each — and the `overrides:` that skip all but the chapters a test needs.
///
/// A render of a few chapters costs a fraction of the whole book's, and loses no check on the
/// file's words: a chapter skipped by an override is listed, text and all, among the sidecar's
/// skipped passages, so "every word of the file is timed or skipped once" still holds for the
/// whole file. What only the whole book shows (its chapter and part structure) is read from
/// `check`, which costs no audio.
struct ChapterSelection: Sendable {
    struct Chapter: Sendable {
        /// 0-based, in the plan's order (an override's `chapter:` is this + 1).
        var index: Int
        var title: String
        var part: String?
        var words: Int
        /// The chapter's lines in `check --text`: what a listener hears, skipped passages in place.
        var script: String
    }

    let chapters: [Chapter]
    /// The skipped passages' reasons in `check --json`, one per passage.
    let skippedReasons: [String]

    /// Reads `manifest` with `lectern check --json` and `--text`.
    init(_ manifest: URL) throws {
        let json = try Tool.run(Tool.lectern, ["check", "--json", manifest.path])
        guard json.status == 0 else { throw TestFailure("lectern check --json \(manifest.path) failed: \(json.stderr)") }
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any] ?? [:]
        let listed = report["chapters"] as? [[String: Any]] ?? []
        skippedReasons = (report["skipped"] as? [[String: Any]] ?? []).compactMap { $0["reason"] as? String }

        let text = try Tool.run(Tool.lectern, ["check", "--text", manifest.path])
        guard text.status == 0 else { throw TestFailure("lectern check --text \(manifest.path) failed: \(text.stderr)") }
        // Each chapter's script runs from its `=== Chapter N: TITLE ===` line to the next `===` line.
        var scripts: [String] = [], inChapter = false
        for line in text.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("=== ") {
                inChapter = line.hasPrefix("=== Chapter ")
                if inChapter { scripts.append("") }
            } else if inChapter {
                scripts[scripts.count - 1] += line + "\n"
            }
        }
        guard scripts.count == listed.count else {
            throw TestFailure("check --text shows \(scripts.count) chapters, check --json \(listed.count)")
        }
        chapters = zip(listed, scripts).enumerated().map { i, pair in
            Chapter(index: i, title: pair.0["title"] as? String ?? "", part: pair.0["part"] as? String,
                    words: pair.0["words"] as? Int ?? 0, script: pair.1)
        }
    }

    /// The parts in order, each with its chapters' indices.
    var parts: [(title: String, chapters: [Int])] {
        var parts: [(title: String, chapters: [Int])] = []
        for chapter in chapters {
            guard let part = chapter.part else { continue }
            if parts.last?.title == part { parts[parts.count - 1].chapters.append(chapter.index) } else { parts.append((part, [chapter.index])) }
        }
        return parts
    }

    /// The `count` chapters of fewest words among `indices`.
    func shortest(_ count: Int, among indices: [Int]) -> [Int] {
        Array(indices.sorted { chapters[$0].words < chapters[$1].words }.prefix(count))
    }

    /// The manifest lines that skip every chapter but `kept`.
    func overrides(keeping kept: Set<Int>) -> String {
        let skips = chapters.map(\.index).filter { !kept.contains($0) }
        guard !skips.isEmpty else { return "" }
        return "overrides:\n" + skips.map { "  - { chapter: \($0 + 1), skip: true }\n" }.joined()
    }
}
