import ArgumentParser
import Foundation
import LecternAudio
import LecternCore

extension CheckCommand {
    /// `lectern check --acx FOLDER`: every MP3 in the folder measured against ``ACXRule``; a table
    /// (or `--json`), and exit status 1 when any rule fails.
    func checkACX(folder path: String) throws {
        var isFolder: ObjCBool = false
        let shown = UserText.escapingControls(path)
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw ArgumentError("no such folder: '\(shown)'")
        }
        guard isFolder.boolValue else { throw ArgumentError("'\(shown)' is a file, not a folder of MP3 files") }
        let report = try ACXCheck.check(folder: URL(fileURLWithPath: path, isDirectory: true))
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(Self.acxTable(report), terminator: "")
        }
        if !report.passed { throw ExitCode(1) }
    }

    /// The report as a table: per file, one line per rule with what was measured, ACX's limit and
    /// the verdict; then the folder's rules and a summary line.
    static func acxTable(_ report: ACXCheck.Report) -> String {
        func line(_ r: ACXRule.Result) -> String {
            "  " + [r.passed ? "pass" : "FAIL", pad(r.rule.rawValue, 19), pad(r.measured, 18), pad(r.limit, 18), r.check]
                .joined(separator: "  ") + "\n"
        }
        var text = "ACX audio check of \(report.folder)\n"
        for file in report.files {
            text += "\n\(file.file): \(file.passed ? "pass" : "FAIL")\n"
            for r in file.results { text += line(r) }
        }
        text += "\nfolder: \(report.folderResults.allSatisfy(\.passed) ? "pass" : "FAIL")\n"
        for r in report.folderResults { text += line(r) }
        let failed = report.files.filter { !$0.passed }.count
        text += "\n\(report.files.count) \(report.files.count == 1 ? "file" : "files"), \(failed) failing"
        text += report.passed ? ": every ACX rule passes\n" : ": does not meet ACX's audio requirements\n"
        return text
    }

    private static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }
}
