import LecternCore

/// A source's start and end markers (`start_at`, `start_after`, `end_at`) applied to a
/// ``BlockStream`` before the structure pass, as ``TextCut`` applies them to a plain text's lines:
/// a marker is matched against each block as written, so that the pass, which would leave out a
/// Project Gutenberg header as a whole, cannot hide the line a marker names.
enum StreamCut {
    /// The stream with what lies outside the markers turned into skips with their reasons.
    ///
    /// - throws: ``ManifestError`` naming the marker's key when a marker matches no block, or
    ///   when a pattern runs past its time limit.
    static func apply(_ stream: BlockStream, source: Source) throws -> BlockStream {
        let rules = source.rules
        guard rules.startAt != nil || rules.startAfter != nil || rules.endAt != nil else { return stream }
        func regex(_ pattern: String?) throws -> UserRegex? { try pattern.map { try UserRegex($0, budget: source.regexBudget) } }
        let startAt = try regex(rules.startAt), startAfter = try regex(rules.startAfter), endAt = try regex(rules.endAt)
        func matches(_ r: UserRegex, _ text: String, _ key: String) throws -> Bool {
            do { return try r.matches(text) } catch {
                throw BookBuilder.keyError(source, key, error.description, atKeyLine: true)
            }
        }
        var started = startAt == nil && startAfter == nil
        var ended = false
        var out = BlockStream()
        for entry in stream.entries {
            let text: String
            switch entry {
            case .block(let block), .note(_, _, let block): text = block.text
            case .chapter:
                if !ended { out.append(entry) }
                continue
            case .contentsEntries:
                if started && !ended { out.append(entry) }
                continue
            case .sectionBreak:
                if started && !ended { out.append(entry) }
                continue
            case .skip(let skipped, let reason, let cut):
                // What the reader left out outside the markers is listed with the cut, never lost.
                if started && !ended {
                    out.append(entry)
                } else if ended {
                    out.skip(skipped, reason: .afterEndMarker(pattern: endAt?.pattern ?? "", key: nil), cut: .after)
                } else {
                    out.skip(skipped, reason: cut == nil ? .beforeStartMarker(pattern: (startAt ?? startAfter)?.pattern ?? "", key: nil) : reason,
                             cut: .before)
                }
                continue
            }
            if ended {
                out.skip(text, reason: .afterEndMarker(pattern: endAt?.pattern ?? "", key: nil), cut: .after)
                continue
            }
            if !started {
                if let r = startAt, try matches(r, text, "start_at") {
                    started = true
                } else if let r = startAfter, try matches(r, text, "start_after") {
                    started = true
                    out.skip(text, reason: .startMarker(pattern: r.pattern))
                    continue
                } else {
                    out.skip(text, reason: .beforeStartMarker(pattern: (startAt ?? startAfter)?.pattern ?? "", key: nil), cut: .before)
                    continue
                }
            }
            if let r = endAt, try matches(r, text, "end_at") {
                ended = true
                out.skip(text, reason: .endMarker(pattern: r.pattern))
                continue
            }
            out.append(entry)
        }
        let name = source.displayPath
        if !started, let r = startAt ?? startAfter {
            throw BookBuilder.keyError(source, startAt != nil ? "start_at" : "start_after",
                                       "/\(r.pattern)/ matches no paragraph or heading of \(name), so nothing would be read")
        }
        if let r = endAt, !ended {
            throw BookBuilder.keyError(source, "end_at", "/\(r.pattern)/ matches no paragraph or heading of \(name) after the start")
        }
        return out
    }
}

extension Source {
    /// The source with its start and end markers applied elsewhere (by ``StreamCut`` or ``TextCut``).
    var withoutMarkers: Source {
        var inner = self
        inner.rules.startAt = nil
        inner.rules.startAfter = nil
        inner.rules.endAt = nil
        return inner
    }
}
