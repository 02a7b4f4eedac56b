import LecternCore

extension Utterance {
    /// The stretches of quoted speech (``VoiceSegment/dialogue``), contiguous segments joined.
    public var speechRanges: [Range<Int>] {
        var ranges: [Range<Int>] = []
        for s in segments where s.dialogue {
            if let last = ranges.last, last.upperBound == s.offset {
                ranges[ranges.count - 1] = last.lowerBound..<(s.offset + s.length)
            } else {
                ranges.append(s.offset..<(s.offset + s.length))
            }
        }
        return ranges
    }

    /// What the engine is given (``spokenText``) with `open` and `close` around each of `ranges`
    /// (UTF-16 ranges of ``text``, in order), for a reader to see where they are; a mark that
    /// would fall inside a pronunciation's stretch is left out.
    public func spokenText(marking ranges: [Range<Int>], open: String, close: String) -> String {
        guard !ranges.isEmpty else { return spokenText }
        let units = Array(text.utf16)
        let inside = { (p: Int) in pronunciations.contains { $0.offset < p && p < $0.end } }
        var marks: [(position: Int, text: [UInt16])] = []
        for range in ranges where range.lowerBound >= 0 && range.upperBound <= units.count && !inside(range.lowerBound) && !inside(range.upperBound) {
            marks.append((range.lowerBound, Array(open.utf16)))
            marks.append((range.upperBound, Array(close.utf16)))
        }
        var marked: [UInt16] = []
        var position = 0
        var shift: [(position: Int, added: Int)] = []
        for mark in marks {
            marked += units[position..<mark.position]
            marked += mark.text
            position = mark.position
            shift.append((mark.position, (shift.last?.added ?? 0) + mark.text.count))
        }
        marked += units[position...]
        let moved = pronunciations.map { p -> Pronunciation in
            let added = shift.last { $0.position <= p.offset }?.added ?? 0
            return Pronunciation(offset: p.offset + added, length: p.length, spoken: p.spoken)
        }
        return SpokenText(String(decoding: marked, as: UTF16.self), pronunciations: moved).text
    }
}
