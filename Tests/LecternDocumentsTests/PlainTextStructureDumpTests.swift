import Foundation
import Testing
@testable import LecternDocuments

/// Not a check: with LECTERN_DUMP set, writes what a listener would hear of each corpus book to /tmp.
@Suite(.enabled(if: Corpus.available && ProcessInfo.processInfo.environment["LECTERN_DUMP"] != nil, "set LECTERN_DUMP to dump"))
struct PlainTextStructureDumpTests {
    @Test(arguments: PlainTextCorpus.all)
    func dump(_ path: String) throws {
        let lines = try PlainTextCorpus.lines(path)
        let start = Date()
        let read = ProcessInfo.processInfo.environment["LECTERN_DUMP"] == "read"
        let items = PlainTextStructure.analyse(lines, illustrations: read ? .read : .skip)
        let elapsed = Date().timeIntervalSince(start)
        var out = "elapsed \(elapsed)s\n"
        for item in items {
            switch item {
            case .heading(let h): out += "\(h.firstLine) ## \(h.level) \(h.lines)\n"
            case .paragraph(let p): out += "\(p.firstLine) P \(p.text.prefix(150))\(p.silent.isEmpty ? "" : " SILENT \(p.silent.map { ($0.reason, ($0.offset, $0.length)) })") \(p.noteReferences)\n"
            case .note(let n): out += "\(n.firstLine) NOTE[\(n.id)] \(n.text.prefix(120))\n"
            case .sectionBreak(let l): out += "\(l) -- break\n"
            case .skipped(let s): out += "\(s.firstLine) SKIP(\(s.reason)) \(s.text.prefix(150))\n"
            }
        }
        out += "\nMISMATCH: \(wordAccountingMismatch(lines, items) ?? "none")\n"
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        try out.write(toFile: "/tmp/structure-\(name)\(read ? "-read" : "").txt", atomically: true, encoding: .utf8)
    }
}
