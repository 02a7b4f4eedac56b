import Foundation

/// An HTTP `Range: bytes=…` header (RFC 9110 §14) against a file of `size` bytes: one range is
/// served as 206; several ranges, or a header that is not a byte range, get the whole file (200),
/// as the RFC allows; a range that starts past the end is unsatisfiable (416).
enum ByteRange {
    enum Answer: Equatable {
        case whole
        case part(ClosedRange<Int>)
        case unsatisfiable
    }

    static func answer(_ header: String?, size: Int) -> Answer {
        guard let header = header?.trimmingCharacters(in: .whitespaces), header.lowercased().hasPrefix("bytes=") else { return .whole }
        let spec = header.dropFirst(6)
        guard !spec.contains(",") else { return .whole }
        let pair = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard pair.count == 2 else { return .whole }
        if pair[0].isEmpty {
            // bytes=-N: the last N bytes.
            guard let suffix = Int(pair[1]), pair[1].allSatisfy(\.isNumber) else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .part(max(0, size - suffix)...(size - 1))
        }
        guard pair[0].allSatisfy(\.isNumber), let start = Int(pair[0]) else { return .whole }
        guard start < size else { return .unsatisfiable }
        if pair[1].isEmpty { return .part(start...(size - 1)) }
        guard pair[1].allSatisfy(\.isNumber), let end = Int(pair[1]), end >= start else { return .whole }
        return .part(start...min(end, size - 1))
    }
}
