import LecternCore

/// `docs/lectern.1` as `make man` finishes it: ArgumentParser's generated page without the hidden
/// `docs` command, with the store's defaults said once (in FILES and ENVIRONMENT rather than under each of five commands' `--store`
/// and `--chunks`), text laid out as `mandoc -T lint` wants it, and the sections the generator
/// does not write: ENVIRONMENT, FILES, EXIT STATUS and SEE ALSO.
enum ManualPage {
    /// The sections added after DESCRIPTION, in mdoc's order.
    static let addedSections = ["ENVIRONMENT", "FILES", "\"EXIT STATUS\"", "\"SEE ALSO\""]

    /// `generated` (ArgumentParser's page, or a page this already finished) finished; the same
    /// page again when given a finished one.
    static func finished(_ generated: String) -> String {
        var lines = generated.components(separatedBy: "\n")
        if let cut = lines.firstIndex(where: { line in addedSections.contains { line == ".Sh " + $0 } }) {
            lines.removeSubrange(cut...)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        var out: [String] = []
        var i = 0
        while i < lines.count {
            let line = lines[i]
            // A hidden command (ArgumentParser's generator lists it): its entry, to the end of its options.
            if line == ".It Em \(DocsCommand.configuration.commandName ?? "")" {
                while i < lines.count, lines[i] != ".El" { i += 1 }
                i += 1
                continue
            }
            // The store's defaults, once in ENVIRONMENT and FILES below.
            if line == ".Pp", i + 1 < lines.count, storeParagraph(lines[i + 1]) {
                i += 2
                continue
            }
            if line.hasPrefix(".Nd "), line.hasSuffix(".\"") {
                out.append(String(line.dropLast(2)) + "\"")
            } else if line.isEmpty {
                out.append(".Pp")
            } else if line.hasPrefix(".") || line.hasPrefix(" ") || line.contains("  ") {
                out.append(line)  // a macro, or text laid out by hand (an example)
            } else {
                out += RoffText.layout(line)
            }
            i += 1
        }
        return (out + sections()).joined(separator: "\n") + "\n"
    }

    /// The help text of `--store` and `--chunks` that says where their defaults come from.
    static func storeParagraph(_ line: String) -> Bool {
        line.hasPrefix("Default: $LECTERN_STORE") || line.hasPrefix("Default: $LECTERN_CHUNKS")
    }

    /// ENVIRONMENT, FILES, EXIT STATUS and SEE ALSO.
    static func sections() -> [String] {
        var out = [".Sh ENVIRONMENT", ".Bl -tag -width Ds"]
        for (name, text) in environment {
            out += [".It Ev \(name)"] + RoffText.lines(text)
        }
        out += [".El", ".Sh FILES", ".Bl -tag -width Ds"]
        for (path, text) in files {
            out += [".It Pa \(path)"] + RoffText.lines(text)
        }
        out += [".El"]
        out += RoffText.lines("The job store is, first found: `--store` or `--db`; `$LECTERN_STORE`; `store:` in `Config/defaults.yml` (unless `$LECTERN_DB` is set); a SQLite store: `$LECTERN_DB`, or `.lectern/lectern.sqlite` of the nearest folder, from the manifest's (or the current one) upwards, that has a `.lectern` folder, or `$XDG_STATE_HOME/lectern/lectern.sqlite`. This host's chunk cache is the `cache` folder beside it. A PostgreSQL address may add `?timeout=SECONDS`: the deadline of each operation on the store (default 30). The chunk folder hosts share is `--chunks`, else `$LECTERN_CHUNKS`, else `chunks:` in `Config/defaults.yml`.")
        out += [".Sh \"EXIT STATUS\"", ".Bl -tag -width Ds"]
        for (status, text) in exitStatuses {
            out += [".It \(status)"] + RoffText.lines(text)
        }
        out += [".El", ".Sh \"SEE ALSO\"", ".Xr espeak-ng 1 ,", ".Xr lame 1 ,", ".Xr lectern-manifest 5"]
        return out
    }

    static let environment: [(String, String)] = [
        ("LECTERN_CONFIG", "The `Config` folder (or its `defaults.yml`) every manifest is merged over, instead of the first found of: a `Config/` at or up to seven folders above the manifest's, `$XDG_CONFIG_HOME/lectern`, and `../share/lectern/Config` beside the binary."),
        ("XDG_CONFIG_HOME", "The user's Config folder is its `lectern` folder (default: `~/.config/lectern`, from `HOME`), used when no folder at or above the manifest's has a `Config/`."),
        ("LECTERN_STORE", "The job store, as `--store` takes it: `sqlite:PATH`, or `postgres://USER@HOST[:PORT]/DB` shared by hosts."),
        ("LECTERN_DB", "A SQLite job store file, as `--db` takes it."),
        ("LECTERN_CHUNKS", "The chunk folder every host reaches, as `--chunks` takes it."),
        ("LECTERN_PIPER_HOME", "Where the Piper engine and its prepared voices are (default: `.piper` of the checkout, which `make piper` fills)."),
        ("XDG_STATE_HOME", "The per-user job store and chunk cache are in its `lectern` folder (default: `~/.local/state/lectern`, from `HOME`)."),
        ("USER", "The PostgreSQL user when the store's address names none."),
        ("SOURCE_DATE_EPOCH", "The date a narrated EPUB states (default: the newest modification time of the job's inputs)."),
    ]

    static let files: [(String, String)] = [
        ("Config/defaults.yml", "The defaults every manifest is merged over, and this host's `store:` and `chunks:`; see `lectern-manifest(5)`. The Config folder used is the first with a `defaults.yml` of: `$LECTERN_CONFIG`; `Config/` in the manifest's folder or up to seven above it; `$XDG_CONFIG_HOME/lectern` (`~/.config/lectern`); `../share/lectern/Config` beside the binary (`/usr/share/lectern/Config` for `/usr/bin/lectern`)."),
        ("Config/voices.yml", "Named voices, for `voice: { preset: NAME }`."),
        ("Config/spoken/LANG.yml", "Spoken forms: Roman numerals, abbreviations, URLs and symbol runs as a narrator says them."),
        ("Config/lexicon/", "Pronunciation lexicons that `Config/defaults.yml` names."),
        (".lectern/lectern.sqlite", "A folder's own job store; the chunk cache is `.lectern/cache`."),
        ("~/.local/state/lectern/", "The per-user job store and chunk cache, when no folder above has a `.lectern`."),
        ("out/NAME/", "A job's outputs (default): `NAME.mp3`, `NAME.timings.json` and the other exports its `timings` name."),
    ]

    static let exitStatuses: [(String, String)] = [
        ("0", "Success."),
        ("1", "A job failed, or the command could not do its work: its error on standard error, one line each."),
        (String(ArgumentCheck.usageStatus), "A usage error: an unknown option, a word starting with one `-` that is not one, or an argument that names no file."),
        ("128+N", "`lectern run` was stopped by signal N (after stopping cleanly)."),
    ]
}
