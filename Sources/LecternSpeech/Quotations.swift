/// Finds the quotations of a paragraph — text between `“ ”`, `„ “`, `« »` or straight double
/// quotes — as UTF-16 ranges that include their quote marks, for identifying quoted passages in
/// another language (`language_switching: detect`).
enum Quotations {
    /// Closing marks for each opening mark (UTF-16 code units).
    private static let pairs: [UInt16: Set<UInt16>] = [
        0x201C: [0x201D],          // “ … ”
        0x201E: [0x201C, 0x201D],  // „ … “ (German) or „ … ”
        0x00AB: [0x00BB],          // « … »
        0x0022: [0x0022],          // " … "
    ]

    /// Each quotation's range in `text`'s UTF-16 code units, in order, not nested; an opening mark
    /// with no closing one opens no quotation.
    static func ranges(in text: String) -> [Range<Int>] {
        let units = Array(text.utf16)
        var result: [Range<Int>] = []
        var i = 0
        while i < units.count {
            if let closers = pairs[units[i]], let end = units[(i + 1)...].firstIndex(where: closers.contains) {
                result.append(i..<(end + 1))
                i = end + 1
            } else {
                i += 1
            }
        }
        return result
    }
}
