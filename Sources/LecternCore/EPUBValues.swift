import Foundation

/// How EPUB metadata writes times: SMIL clock values for media overlays and `media:duration`,
/// and UTC timestamps for `dcterms:modified`.
public enum EPUBValues {
    /// A SMIL full clock value, `h:mm:ss.mmm` (hours unpadded, any number of them).
    public static func clock(_ ms: Int) -> String {
        let h = ms / 3_600_000, m = ms / 60_000 % 60, s = ms / 1000 % 60, f = ms % 1000
        return "\(h):" + String(format: "%02d:%02d.%03d", m, s, f)
    }

    /// `dcterms:modified`: UTC to the second, `2026-11-21T05:46:11Z`.
    public static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
