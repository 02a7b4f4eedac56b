/// The documentation generated from ``ManifestSchema``: the README's manifest reference, the
/// `lectern-manifest(5)` manual page and the commented list of every key in `lectern init`'s
/// manifest. `lectern docs` writes them; a test fails when a committed copy is stale.
public enum ManifestReference {
    /// The comments around the README's generated reference.
    public static let beginMarker = "<!-- manifest-reference:begin (generated from ManifestSchema by `make docs`: edit Sources/LecternCore/ManifestSchema+Keys.swift) -->"
    public static let endMarker = "<!-- manifest-reference:end -->"

    // MARK: README

    /// The README's reference: a table row per key.
    public static func markdown() -> String {
        var rows = ["| key | takes | default | over `Config/defaults.yml` | what it does |", "|---|---|---|---|---|"]
        for key in ManifestSchema.keys {
            var meaning = formatsNote(key).map { "**\($0):** " } ?? ""
            meaning += key.doc
            if let details = key.details { meaning += ". " + details }
            if key.onlyInDefaults { meaning += " (`Config/defaults.yml` only)" }
            let takes = key.kind.rawValue + (key.range.map { ": " + $0 } ?? "")
            rows.append("| `\(key.path)` | \(cell(takes)) | \(cell(key.defaultValue ?? "")) | \(cell(key.merge.rawValue)) | \(cell(meaning)) |")
        }
        return rows.joined(separator: "\n") + "\n"
    }

    /// `readme` with the text between the markers replaced by ``markdown()``; nil when a marker is missing.
    public static func updatingREADME(_ readme: String) -> String? {
        guard let begin = readme.range(of: beginMarker), let end = readme.range(of: endMarker, range: begin.upperBound..<readme.endIndex) else {
            return nil
        }
        return String(readme[..<begin.upperBound]) + "\n" + markdown() + String(readme[end.lowerBound...])
    }

    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }

    /// "plain text, Markdown" for a key that applies to some formats only.
    static func formatsNote(_ key: ManifestKey) -> String? {
        key.formats.map { $0.map(formatName).joined(separator: ", ") }
    }

    static func formatName(_ format: Source.Format) -> String {
        switch format {
        case .text: return "plain text"
        case .markdown: return "Markdown"
        case .html, .epub: return format.rawValue.uppercased()
        }
    }

    // MARK: lectern init

    /// Every key a manifest may give, as commented YAML with its one-line doc: what `lectern
    /// init` appends to the manifest it writes.
    public static func template() -> String {
        var lines = ["# Every key a manifest may give (man 5 lectern-manifest; unset keys come from Config/defaults.yml).",
                     "# Remove the # to use one:"]
        func add(_ parent: String, indent: String, listItem: Bool) {
            var first = true
            for key in ManifestSchema.keys where key.parent == parent && !key.name.contains("*") && !key.onlyInDefaults {
                let lead = listItem ? (first ? String(indent.dropLast(2)) + "- " : indent) : indent
                first = false
                let itemPath = key.path + "[]"
                let hasChildren = ManifestSchema.keys.contains { ($0.parent == key.path || $0.parent == itemPath) && !$0.name.contains("*") }
                let text = "#" + lead + key.name + ":" + (hasChildren ? "" : " " + key.example)
                let doc = (formatsNote(key).map { "\($0) only: " } ?? "") + key.doc
                lines.append(text.padding(toLength: max(text.count + 2, 44), withPad: " ", startingAt: 0) + "# " + doc)
                if hasChildren {
                    let isList = ManifestSchema.keys.contains { $0.parent == itemPath }
                    add(isList ? itemPath : key.path, indent: indent + (isList ? "    " : "  "), listItem: isList)
                }
            }
        }
        add("", indent: " ", listItem: false)
        lines.append("# (store and chunks, about this host, are keys of Config/defaults.yml only.)")
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: lectern-manifest(5)

    /// The `lectern-manifest(5)` manual page (man(7) macros), dated `date` (such as `2026-11-26`).
    public static func manPage(date: String) -> String {
        var out = [".\\\" Generated from ManifestSchema by `make docs` (Sources/LecternCore/ManifestSchema+Keys.swift): do not edit.",
                   ".TH LECTERN-MANIFEST 5 \(date) Lectern \"File Formats Manual\"",
                   ".SH NAME",
                   "lectern-manifest \\- the YAML manifest of a Lectern job, and Config/defaults.yml",
                   ".SH SYNOPSIS",
                   ".I JOB.yml",
                   ".SH DESCRIPTION"]
        out += RoffText.lines("A manifest is a YAML mapping that names a book's documents and says how to narrate them: `lectern run JOB.yml` renders it, `lectern check JOB.yml` reports what will be read, `lectern init DOCUMENT` writes one. Every key it leaves out comes from `Config/defaults.yml` (found by walking up from the manifest's folder, or named by `$LECTERN_CONFIG`), which takes the same keys and also `store` and `chunks`, and then from the built-in defaults.")
        out += [".PP"]
        out += RoffText.lines("An error names the file, line and key, such as `Jobs/alice.yml:9: voice.rate: expected a number from 0 to 1, found \"fast\"`; an unknown key names the closest one (`did you mean rate?`) and the keys allowed there.")
        out += [".PP"]
        out += RoffText.lines("Below, `sources[].encoding` is the key `encoding` of an entry of the `sources` list, and `pauses.*.before` the key `before` of any entry of `pauses`.")
        out += [".SH KEYS"]
        for key in ManifestSchema.keys {
            out += [".TP", ".B " + RoffText.escaped(key.path)]
            var text = key.doc.prefix(1).uppercased() + key.doc.dropFirst() + "."
            if let formats = formatsNote(key) { text += " For \(formats) sources only." }
            text += " Takes " + key.kind.rawValue + (key.range.map { ": " + $0 } ?? "") + "."
            if let value = key.defaultValue { text += " Default: \(value)." }
            if key.merge != .withParent { text += " Over the defaults: \(key.merge.explanation)." }
            if key.onlyInDefaults { text += " In `Config/defaults.yml` only." }
            out += RoffText.lines(text)
            if let details = key.details { out += [".IP"] + RoffText.lines(details + ".") }
        }
        out += [".SH FILES", ".TP", ".I Config/defaults.yml"]
        out += RoffText.lines("The defaults every manifest is merged over: the nearest `Config` folder walking up from the manifest's, or `$LECTERN_CONFIG`.")
        out += [".TP", ".I Config/voices.yml"]
        out += RoffText.lines("Named voices for `voice: { preset: NAME }`.")
        out += [".TP", ".I Config/spoken/LANG.yml"]
        out += RoffText.lines("Spoken forms: numerals, abbreviations, URLs and symbol runs as a narrator says them.")
        out += [".SH SEE ALSO", ".BR espeak-ng (1),", ".BR lame (1),", ".BR lectern (1)"]
        return out.joined(separator: "\n") + "\n"
    }

    /// The date of a manual page written by ``manPage(date:)``, read back from its `.TH` line.
    public static func manPageDate(_ page: String) -> String? {
        guard let th = page.split(separator: "\n").first(where: { $0.hasPrefix(".TH ") }) else { return nil }
        let fields = th.split(separator: " ")
        return fields.count > 3 ? String(fields[3]) : nil
    }
}
