import LecternCore

/// An item as the scanner first finds it, before the whole-book passes (parts, front matter,
/// advertisements) and before its text is cleaned.
enum StructurePiece {
    case heading(lines: [String], firstLine: Int, candidate: HeadingCandidate)
    /// Lines trimmed but otherwise as written.
    case paragraph(lines: [String], firstLine: Int)
    case note(id: String, lines: [String], firstLine: Int)
    case sectionBreak(Int)
    case skipped(text: String, reason: SkipReason, firstLine: Int)

    var isHeading: Bool { if case .heading = self { true } else { false } }
    var isSkipped: Bool { if case .skipped = self { true } else { false } }
    func isSkipped(_ reason: SkipReason) -> Bool { if case .skipped(_, reason, _) = self { true } else { false } }

    /// The piece's first line.
    var firstLine: Int {
        switch self {
        case .heading(_, let first, _), .paragraph(_, let first), .note(_, _, let first), .skipped(_, _, let first): first
        case .sectionBreak(let line): line
        }
    }
    var isReadText: Bool {
        switch self {
        case .paragraph, .note: true
        default: false
        }
    }

    /// The piece as a skipped passage with `reason` (paragraphs and notes; others unchanged).
    func skipped(_ reason: SkipReason) -> StructurePiece? {
        switch self {
        case .paragraph(let lines, let first), .note(_, let lines, let first):
            return .skipped(text: TextLines.collapse(lines.joined(separator: " ")), reason: reason, firstLine: first)
        case .sectionBreak:
            return nil
        default:
            return self
        }
    }
}
