import Foundation
import LecternCore

/// What the argument parser would misread, refused before it reads the arguments.
///
/// A word such as `-dash.txt` reads to the parser as the short flags `-d -a -s -h …` — and its
/// `-h` prints the help and exits 0, so a script looping over files sees success. Lectern's short
/// options are single letters, so any longer word starting with one dash is refused with status
/// 64 (a usage error): a file of that name is named `./-dash.txt`, or after `--`.
enum ArgumentCheck {
    /// `EX_USAGE`, as the argument parser exits on the errors it finds itself.
    static let usageStatus: Int32 = 64

    /// The message for the first argument the parser would misread, or nil.
    static func problem(in arguments: [String]) -> String? {
        for argument in arguments {
            if argument == "--" { return nil }
            guard argument.hasPrefix("-"), !argument.hasPrefix("--"), argument.count > 2 else { continue }
            // A negative number is a value (`--workers -1` is refused by the option itself).
            if Double(argument) != nil { continue }
            let shown = UserText.excerpt(argument)
            if FileManager.default.fileExists(atPath: argument) {
                return "'\(shown)' reads as options, not as the file of that name: write ./\(shown), or put it after --"
            }
            return "unknown option '\(shown)' (a file whose name starts with '-' is named ./\(shown), or after --)"
        }
        return nil
    }

    /// Each of `paths` must name a file: the first that does not is a usage error, named as
    /// written (control characters escaped).
    static func requireFiles(_ paths: [String], what: String) throws {
        for path in paths {
            var isFolder: ObjCBool = false
            let shown = UserText.escapingControls(path)
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw ArgumentError("no such \(what): '\(shown)'")
            }
            if isFolder.boolValue { throw ArgumentError("'\(shown)' is a folder, not a \(what)") }
        }
    }
}

/// A command-line argument that names nothing Lectern can use (exit status 64).
struct ArgumentError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
