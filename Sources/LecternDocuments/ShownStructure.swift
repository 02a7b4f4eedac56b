import Foundation
import LecternCore

/// What a book's documents show as structure beyond their tags, for ``HTMLWalker``: elements
/// other than `h1`–`h6` that read as headings (with their level), elements that start a chapter
/// titled by their text, and page furniture (running heads and feet) that is never narrated.
/// Keyed by node, so it applies to the very trees it was found in. Found by ``HeadingDetector``.
struct ShownStructure {
    /// Elements skipped whole, with the reason listed ("running head", "running foot").
    var skips: [XMLNodePointer: SkipReason] = [:]
    /// Elements other than `h1`–`h6` read as heading blocks, and their levels (1 highest).
    var headings: [XMLNodePointer: Int] = [:]
    /// Elements (headings) where a chapter titled by their text starts.
    var chapterStarts: Set<XMLNodePointer> = []
}
