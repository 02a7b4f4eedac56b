import Foundation

/// A compiled regular expression for matching single lines, safe to share between threads
/// (NSRegularExpression is immutable once made).
struct LinePattern: @unchecked Sendable {
    let regex: NSRegularExpression

    init(_ pattern: String, caseInsensitive: Bool = false) {
        // The patterns are literals in this module; a bad one is a programming error.
        regex = try! NSRegularExpression(pattern: pattern, options: caseInsensitive ? [.caseInsensitive] : [])
    }

    func matches(_ text: String) -> Bool {
        regex.firstMatch(in: text, range: NSRange(location: 0, length: text.utf16.count)) != nil
    }

    func firstMatch(_ text: String) -> NSTextCheckingResult? {
        regex.firstMatch(in: text, range: NSRange(location: 0, length: text.utf16.count))
    }

    func allMatches(_ text: String) -> [NSTextCheckingResult] {
        regex.matches(in: text, range: NSRange(location: 0, length: text.utf16.count))
    }

    /// The text of capture group `group` of the first match, if any.
    func capture(_ group: Int, in text: String) -> String? {
        guard let m = firstMatch(text), m.numberOfRanges > group, m.range(at: group).location != NSNotFound else { return nil }
        return (text as NSString).substring(with: m.range(at: group))
    }
}
