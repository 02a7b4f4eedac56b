import Foundation

/// Names that come from a request and become names on disk: a file's name as a browser sends
/// it, a job's name. Nothing from a request ever becomes a path: only a last component, never
/// `.` or `..`, never hidden, no control characters, bounded length.
enum SafeName {
    /// The last component of `raw` (a browser may send `C:\Users\me\book.txt`), checked.
    ///
    /// - throws: ``ServeError`` 400 naming `field` when nothing usable is left.
    static func file(_ raw: String, field: String) throws -> String {
        let last = raw.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let name = last.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name != ".", name != "..", !name.hasPrefix("."),
              !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == "\u{0}" }),
              name.utf8.count <= 200 else {
            throw ServeError.badRequest("the file name \(UserTextEcho.quoted(raw)) cannot be used: give a plain file name, "
                                        + "not hidden, without control characters, at most 200 bytes", field: field)
        }
        return name
    }

    /// A job name from `raw`: lower-case letters, digits, `-` and `_`, at most 60; nil when none is left.
    static func jobName(_ raw: String) -> String? {
        var out = ""
        for scalar in raw.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) { out.unicodeScalars.append(scalar) } else if !out.hasSuffix("-") { out += "-" }
        }
        let trimmed = String(out.trimmingCharacters(in: CharacterSet(charactersIn: "-")).prefix(60))
        return trimmed.isEmpty ? nil : trimmed
    }
}

/// User input in a message, quoted, control characters shown escaped, at most 80 characters.
enum UserTextEcho {
    static func quoted(_ text: String) -> String {
        let escaped = text.unicodeScalars.map { $0.properties.generalCategory == .control ? $0.escaped(asASCII: true) : String($0) }.joined()
        return "\"" + (escaped.count > 80 ? escaped.prefix(80) + "…" : escaped) + "\""
    }
}
