import LecternCore

/// A play's cast list before its first act: under its title (`THE PERSONS OF THE PLAY`,
/// `DRAMATIS PERSONÆ`, `CHARACTERS`, `CAST`), the names with their descriptions
/// (`HAMLET, Prince of Denmark.`, `MRS. UPJOHN (LILY's _mother_)`), then the notes that set
/// the scene (`SCENE: Elsinore.`, `_The action of the piece takes place in London…_`).
///
/// A narrator reads it, as the audiobook's first chapter — front matter that is read, like a
/// dedication, not the title page: the title is the chapter's spoken heading, each entry a list
/// item of its own (never a speaker's label), the scene's notes paragraphs. What stands between
/// it and the first act is front matter as ever (``FrontMatter``: read if a dedication or an
/// epigraph, else left out with the title page).
enum CastList {
    static let title = LinePattern(
        #"^(?:THE\s+)?(?:PERSONS\s+(?:OF\s+THE\s+(?:PLAY|DRAMA|COMEDY|TRAGEDY)|REPRESENTED|IN\s+THE\s+PLAY)|DRAMATIS\s+PERSON(?:AE|Æ|\x{E6})"#
            + #"|(?:PRINCIPAL\s+)?CHARACTERS(?:\s+(?:IN|OF)\s+THE\s+(?:PLAY|COMEDY|TRAGEDY|DRAMA)|\s+REPRESENTED)?|CAST(?:\s+OF\s+CHARACTERS)?)\s*[.:]?$"#,
        caseInsensitive: true)
    /// A note that sets the scene: `SCENE: Elsinore.`, `TIME: The present.`, `The action of the piece…`.
    static let setting = LinePattern(
        #"^(?:THE\s+)?(?:SCENES?|TIME|PLACE|PERIOD|ACTION|LOCALITY|PLACE\s+AND\s+TIME)\b"#, caseInsensitive: true)
    /// The brackets that group names in a cast list's layout (`LILY PARRADELL }`): not spoken.
    static let braces = LinePattern(#"[{}]"#)

    /// The kind of block a cast list's entry is.
    static let entryKind = BlockKind.listItem

    /// The pieces with the cast list (if one stands before the first heading) made a chapter
    /// heading and its entries, one piece each; `lines`, the text as written, tells an entry's
    /// indented continuation lines. Returns the kind of each of its blocks by its first line: the
    /// entries list items, the scene's notes paragraphs (not stage directions, even in italics).
    static func apply(_ pieces: [StructurePiece], lines: [String]) -> (pieces: [StructurePiece], kinds: [Int: BlockKind]) {
        let (pieces, scenes) = SceneList.apply(pieces, lines: lines)
        let first = pieces.firstIndex(where: \.isHeading) ?? pieces.count
        // The last title with entries under it: an earlier one is a contents list's entry for it.
        let titles = pieces[..<first].indices.reversed().filter { n in
            guard case .paragraph(let block, _) = pieces[n] else { return false }
            return title.matches(cleaned(block[0]))
        }
        for k in titles {
            guard case .paragraph(let titleBlock, let titleLine) = pieces[k] else { continue }
            let (cast, entries, notes) = body(of: titleBlock, at: k, firstLine: titleLine, in: pieces, upTo: first, scenes: scenes, lines: lines)
            guard !entries.isEmpty else { continue }

            let heading = cleaned(titleBlock[0])
            var out = Array(pieces[..<k])
            out.append(.heading(lines: [heading], firstLine: titleLine, candidate: HeadingCandidate(kind: .standalone, text: heading, hasTitle: false)))
            out += cast[k] ?? []
            // What stands after it before the first act is front matter as ever (read if a
            // dedication or an epigraph; a title page over its bound is read by ``SkipBounds``).
            let rest = ((k + 1)..<first).filter { cast[$0] == nil }
            let read = FrontMatter.read(ArraySlice(rest.map { pieces[$0] }))
            let restPosition = Dictionary(uniqueKeysWithValues: rest.enumerated().map { ($1, $0) })
            for n in (k + 1)..<first {
                if let entries = cast[n] {
                    out += entries
                } else if let position = restPosition[n], read.contains(position) {
                    out.append(pieces[n])
                } else if let skipped = pieces[n].skipped(SkipReason.titlePage) {
                    out.append(skipped)
                }
            }
            let kinds = Dictionary(uniqueKeysWithValues: entries.map { ($0, entryKind) } + notes.map { ($0, BlockKind.paragraph) })
            return (out + pieces[first...], kinds)
        }
        return (pieces, [:])
    }

    /// The entries under a cast list's title at `k` (its own block's other lines first), then the
    /// notes that set the scene, as pieces by the index of the piece they come from. Skipped
    /// passages between them keep their places.
    private static func body(
        of titleBlock: [String], at k: Int, firstLine titleLine: Int, in pieces: [StructurePiece], upTo first: Int,
        scenes: Set<Int>, lines: [String]
    ) -> (cast: [Int: [StructurePiece]], entries: Set<Int>, notes: Set<Int>) {
        var body: [(index: Int, block: [String], firstLine: Int)] = []
        if titleBlock.count > 1 { body.append((k, Array(titleBlock.dropFirst()), titleLine + 1)) }
        for n in (k + 1)..<first { if case .paragraph(let block, let start) = pieces[n] { body.append((n, block, start)) } }
        var cast: [Int: [StructurePiece]] = [:]
        var entries = Set<Int>(), notes = Set<Int>()
        var settingSeen = false
        for (index, block, start) in body {
            let split = Self.entries(block, firstLine: start, lines: lines)
            if !settingSeen, split.allSatisfy({ isEntry($0.lines) }) {
                cast[index] = split.map { .paragraph(lines: $0.lines, firstLine: $0.firstLine) }
                entries.formUnion(split.map(\.firstLine))
            } else if !entries.isEmpty, scenes.contains(start) {
                // A list of scenes (``SceneList``): an entry each, read with the cast.
                cast[index] = [.paragraph(lines: block, firstLine: start)]
                entries.insert(start)
            } else if !entries.isEmpty, isSetting(block[0]) {
                cast[index] = [.paragraph(lines: block, firstLine: start)]
                notes.insert(start)
                settingSeen = true
            } else {
                break
            }
        }
        return (cast, entries, notes)
    }

    /// A block's entries: a line indented deeper than the block's first, or going on in lower
    /// case, continues the entry above it.
    static func entries(_ block: [String], firstLine: Int, lines: [String]) -> [(lines: [String], firstLine: Int)] {
        let asWritten = firstLine + block.count <= lines.count
            && block.indices.allSatisfy { TextLines.trim(lines[firstLine + $0]) == block[$0] }
        let base = asWritten ? TextLines.indent(lines[firstLine]) : 0
        var out: [(lines: [String], firstLine: Int)] = []
        for (n, line) in block.enumerated() {
            let deeper = asWritten && TextLines.indent(lines[firstLine + n]) > base
            let lower = cleaned(line).first?.isLowercase == true
            if !out.isEmpty, deeper || lower {
                out[out.count - 1].lines.append(line)
            } else {
                out.append(([line], firstLine + n))
            }
        }
        return out
    }

    /// Whether an entry reads as a name with its description: the words before the first comma
    /// or parenthesis (at most eight) mostly capitalised, or a description alone in parentheses.
    static func isEntry(_ entry: [String]) -> Bool {
        let text = cleaned(entry.joined(separator: " "))
        if text.hasPrefix("(") { return TextLines.wordCount(text) <= 16 }
        guard let firstChar = text.first, firstChar.isUppercase, !isSetting(text) else { return false }
        let name = text.prefix { $0 != "," && $0 != "(" && $0 != "}" && $0 != ";" && $0 != ":" }
        let words = TextLines.words(String(name)).filter { $0.contains(where: \.isLetter) }
        guard !words.isEmpty, words.count <= 8 else { return false }
        let capitalised = words.filter { $0.first(where: \.isLetter)?.isUppercase == true }.count
        return capitalised * 3 >= words.count * 2 || (words.count <= 3 && capitalised * 2 >= words.count)
    }

    /// Whether a block starting with `line` sets the scene (past an opening bracket or italics mark).
    static func isSetting(_ line: String) -> Bool {
        setting.matches(String(cleaned(line).drop { "_[( ".contains($0) }))
    }

    /// A line without its italics marks, collapsed.
    static func cleaned(_ line: String) -> String {
        Emphasis.remove(TextLines.collapse(line)).trimmingCharacters(in: .whitespaces)
    }

    /// The stretches of an entry's text its layout's braces take: silent.
    static func silentBraces(in text: String) -> [SilentStretch] {
        braces.allMatches(text).map { SilentStretch(offset: $0.range.location, length: $0.range.length, reason: InlineMarks.formattingMarkup) }
    }
}
